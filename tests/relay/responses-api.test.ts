import { afterAll, beforeAll, expect, test } from 'bun:test'
import { addUser, as, login } from '../helpers/accounts'
import { call } from '../helpers/test-app'
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstreams'
import { startRelayEnv, type RelayEnv } from '../helpers/relay-env'

/**
 * The Responses API besides create: a stored response is retrieved, listed, cancelled and deleted on the channel and
 * key that created it (two OpenAI accounts, one with two keys; the fake keeps each response under its key, so any
 * other account or key answers 404); compaction is billed and goes to the home of the response it names; an id the
 * gateway does not know, or another user's, is a 404 in OpenAI's shape that reaches no upstream.
 */
let env: RelayEnv
let second: FakeUpstream
const SECOND_KEYS = ['sk-second-account-key-a-0123456789', 'sk-second-account-key-b-0123456789']
const upstreams = () => [env.upstream, second]

beforeAll(async () => {
  env = await startRelayEnv()
  second = await startFakeUpstream({ keys: SECOND_KEYS })
  await env.addChannel({ type: 1, name: 'first', models: 'gpt-5', weight: 1 })
  await env.addChannel({ type: 1, name: 'second', baseUrl: second.url, keyText: SECOND_KEYS.join('\n'), models: 'gpt-5', weight: 1 })
  await env.app.deps.options.set('ModelRatio', { 'gpt-5': 1 })
  await env.app.deps.options.set('CompletionRatio', { 'gpt-5': 2 })
})
afterAll(async () => {
  await env.stop()
  await second.stop()
})

const bearer = (key = env.key) => ({ authorization: `Bearer ${key}` })
const post = (path: string, body: unknown, key?: string) =>
  env.app.fetch(path, { method: 'POST', headers: { ...bearer(key), 'content-type': 'application/json' }, body: JSON.stringify(body) })
const send = (method: string, path: string, key?: string) => env.app.fetch(path, { method, headers: bearer(key) })
const requestCount = () => env.upstream.requests.length + second.requests.length

/** Creates a stored response (streamed or not); answers its id and the upstream and key that hold it. */
async function create(stream: boolean, extra: Record<string, unknown> = {}) {
  const res = await post('/v1/responses', { model: 'gpt-5', input: 'remember this', stream, ...extra })
  const text = await res.text()
  expect(res.status, text).toBe(200)
  const id = stream ? /"response":\{"id":"(resp_[0-9a-f]+)"/.exec(text)![1]! : (JSON.parse(text) as { id: string }).id
  const holder = upstreams().find((u) => u.storedResponses.has(id))
  return { id, holder, key: holder?.storedResponses.get(id)?.key }
}

test('responses created streamed and not, over two accounts, are each retrieved and listed at the account and key that made them', async () => {
  const made = []
  for (let i = 0; i < 8; i++) made.push(await create(i % 2 === 0))
  // the weighted order spreads them: both accounts and both keys of the second hold some
  expect(new Set(made.map((m) => m.holder))).toEqual(new Set(upstreams()))
  for (const m of made) {
    expect(m.holder).toBeDefined()
    const before = m.holder!.requests.length
    const res = await send('GET', `/v1/responses/${m.id}?include[]=message.output_text.logprobs`)
    expect(res.status).toBe(200)
    expect(((await res.json()) as { id: string }).id).toBe(m.id)
    const sent = m.holder!.requests.slice(before)
    expect(sent.map((r) => [r.method, r.path, r.headers.authorization])).toEqual([['GET', `/v1/responses/${m.id}`, `Bearer ${m.key}`]])
    expect(sent[0]!.query['include[]']).toBe('message.output_text.logprobs')

    const items = await send('GET', `/v1/responses/${m.id}/input_items`)
    expect(items.status).toBe(200)
    expect(await items.json()).toMatchObject({ object: 'list', data: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'remember this' }] }] })
  }
  expect(new Set(made.filter((m) => m.holder === second).map((m) => m.key)).size).toBe(2)
})

test('retrieve, list and delete are not billed; a deleted response is then unknown and nothing more reaches an upstream', async () => {
  const { id, holder } = await create(false)
  const logsBefore = env.outcomes.length
  const quotaBefore = (await env.app.deps.repos.users.findById(env.user.id))!.quota
  expect((await send('GET', `/v1/responses/${id}`)).status).toBe(200)
  const deleted = await send('DELETE', `/v1/responses/${id}`)
  expect(deleted.status).toBe(200)
  expect(await deleted.json()).toEqual({ id, object: 'response', deleted: true })
  expect(holder!.storedResponses.has(id)).toBe(false)
  expect(env.outcomes.length).toBe(logsBefore) // nothing settled: no log row, no charge
  expect((await env.app.deps.repos.users.findById(env.user.id))!.quota).toBe(quotaBefore)

  const sent = requestCount()
  const gone = await send('GET', `/v1/responses/${id}`)
  expect(gone.status).toBe(404)
  expect(requestCount()).toBe(sent)
})

test('an unknown id, a `store: false` response and another user\'s response are 404s in OpenAI\'s shape that reach no upstream', async () => {
  const unstored = await create(false, { store: false })
  const { id } = await create(false)
  const bob = await addUser(env.app, { username: 'bob-responses', quota: 1_000_000 })
  const bobKey = await env.newKey({}, bob)
  const sent = requestCount()
  for (const [path, key] of [[`/v1/responses/resp_${'0'.repeat(48)}`, env.key], [`/v1/responses/${unstored.id}`, env.key], [`/v1/responses/${id}`, bobKey], [`/v1/responses/${id}/input_items`, bobKey]] as const) {
    const res = await send('GET', path, key)
    expect(res.status, path).toBe(404)
    const body = (await res.json()) as { error: { message: string; type: string; code: string } }
    expect(body.error).toMatchObject({ type: 'not_found_error', code: 'response_not_found', param: null })
    expect(body.error.message).toContain('not found')
  }
  expect((await send('DELETE', `/v1/responses/${id}`, bobKey)).status).toBe(404)
  // a follow-up turn may not continue another user's conversation either
  const turn = await post('/v1/responses', { model: 'gpt-5', input: 'and then?', previous_response_id: id }, bobKey)
  expect(turn.status).toBe(400)
  expect(((await turn.json()) as { error: { code: string; param: string } }).error).toMatchObject({ code: 'previous_response_not_found', param: 'previous_response_id' })
  expect(requestCount()).toBe(sent)
  // a bad id is refused before any look-up
  expect((await send('GET', '/v1/responses/resp%2F..%2Fx')).status).toBe(400)
})

test("a key whose model limits exclude the response's model may not reach it", async () => {
  const { id } = await create(false)
  const limited = await env.newKey({ model_limits_enabled: true, model_limits: 'gpt-4o' })
  const res = await send('GET', `/v1/responses/${id}`, limited)
  expect(res.status).toBe(404)
  expect(((await res.json()) as { error: { code: string } }).error.code).toBe('model_not_found')
})

test('cancel goes to the home account and its answer (400 for a response not made in the background) comes back as it is', async () => {
  const { id, holder, key } = await create(false)
  const before = holder!.requests.length
  const res = await send('POST', `/v1/responses/${id}/cancel`)
  expect(res.status).toBe(400)
  expect(((await res.json()) as { error: { message: string } }).error.message).toContain('background=true')
  expect(holder!.requests.slice(before).map((r) => [r.method, r.path, r.headers.authorization])).toEqual([['POST', `/v1/responses/${id}/cancel`, `Bearer ${key}`]])
})

test('follow-up turns (previous_response_id) all reach the account and key holding the conversation', async () => {
  const first = await create(false)
  for (let turn = 0; turn < 6; turn++) {
    const before = upstreams().map((u) => u.requests.length)
    const res = await post('/v1/responses', { model: 'gpt-5', input: `turn ${turn}`, previous_response_id: first.id, stream: turn % 2 === 1 })
    expect(res.status).toBe(200)
    await res.text()
    const reached = upstreams().flatMap((u, i) => u.requests.slice(before[i]).map((r) => ({ u, key: r.headers.authorization })))
    expect(reached).toEqual([{ u: first.holder!, key: `Bearer ${first.key}` }])
  }
})

test('compaction is billed at the model\'s prices on the usage the upstream reports, and goes to the home of the response it names', async () => {
  const { id, holder, key } = await create(false)
  for (const u of upstreams()) u.setBehavior({ text: 'x', usage: { input: 1000, output: 50 } })
  const settled = env.outcomes.length
  for (let i = 0; i < 4; i++) {
    const before = holder!.requests.length
    const res = await post('/v1/responses/compact', { model: 'gpt-5', previous_response_id: id, input: [{ role: 'user', content: 'more' }] })
    const body = (await res.json()) as { object: string; usage: { input_tokens: number; output_tokens: number } }
    expect(res.status).toBe(200)
    expect(body).toMatchObject({ object: 'response.compaction', usage: { input_tokens: 1000, output_tokens: 50 } })
    expect(holder!.requests.slice(before).map((r) => [r.path, r.headers.authorization])).toEqual([['/v1/responses/compact', `Bearer ${key}`]])
  }
  const outcomes = env.outcomes.slice(settled)
  expect(outcomes).toHaveLength(4)
  expect(outcomes[0]).toMatchObject({ ok: true, model: 'gpt-5', usage: { input: { noCache: 1000 }, output: { text: 50 } } })
  // ModelRatio 1 (1 quota per input token), CompletionRatio 2: 1000 + 50 × 2
  const root = as(await login(env.app))
  const rows = (await call(env.app, 'GET', '/api/log/?p=1&page_size=4', undefined, root)).body.data.items as { quota: number; model_name: string; prompt_tokens: number }[]
  expect(rows.map((r) => [r.model_name, r.prompt_tokens, r.quota])).toEqual(Array(4).fill(['gpt-5', 1000, 1100]))
  for (const u of upstreams()) u.setBehavior({ text: 'Hello from the fake upstream.' })
})

test('compaction without a model is a 400; with a model no Responses channel serves, a 404', async () => {
  const res = await post('/v1/responses/compact', { input: 'x' })
  expect(res.status).toBe(400)
  expect(((await res.json()) as { error: { param: string } }).error.param).toBe('model')
  expect((await post('/v1/responses/compact', { model: 'nobody-serves-this', input: 'x' })).status).toBe(404)
})
