/**
 * AWS Bedrock (33) and Google Vertex AI (41) channels as an admin runs them: the channel test and fetch_models
 * through the same signing and tokens the relay uses; failover when Bedrock refuses a signature or Vertex a token
 * (Vertex's cached token dropped and minted again), the channel health counting it; no key, secret or token in
 * what a client sees; and the management API refusing keys and regions these types cannot use.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { startFakeBedrock, type FakeBedrock } from '../helpers/fake-upstreams/bedrock'
import { startFakeGoogleToken, type FakeGoogleToken, type TestServiceAccount } from '../helpers/fake-upstreams/google-token'
import { startFakeVertex, type FakeVertex } from '../helpers/fake-upstreams/vertex'
import { startRelayEnv, type RelayEnv } from '../helpers/relay-env'
import { call } from '../helpers/test-app'
import { userHeaders } from '../modules/channels/helpers'

const AKID = 'AKIDCHANNELTESTS0001'
const SECRET = 'channel-tests-secret-access-key-00001'
const API_KEY = 'ABSKchanneltestsapikey0001'
const GOOD = `${AKID}|${SECRET}|us-east-1`
const WRONG_SECRET = 'wrong-secret-access-key-value-000001'

let env: RelayEnv
let admin: Record<string, string>
let bedrock: FakeBedrock
let google: FakeGoogleToken
let vertex: FakeVertex
let account: TestServiceAccount
beforeAll(async () => {
  env = await startRelayEnv()
  admin = await userHeaders(env.app)
  bedrock = await startFakeBedrock({ region: 'us-east-1', credentials: { [AKID]: SECRET }, apiKeys: [API_KEY], profilesPerPage: 2 })
  google = await startFakeGoogleToken()
  vertex = await startFakeVertex({ tokens: google, locations: ['us-east5', 'global'] })
  account = await google.createAccount({ projectId: 'channels-project' })
})
afterAll(async () => {
  await env.stop()
  await Promise.all([bedrock.stop(), vertex.stop(), google.stop()])
})
beforeEach(() => {
  bedrock.reset()
  vertex.reset()
  env.outcomes.length = 0
})

async function create(body: Record<string, unknown>): Promise<number> {
  const res = await call(env.app, 'POST', '/api/channel/', { name: `c-${body.type}`, ...body }, admin)
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return res.body.data.id
}
const bedrockChannel = (extra: Record<string, unknown> = {}) =>
  create({ type: 33, key: GOOD, base_url: bedrock.url, models: 'us.anthropic.claude-haiku-4-5-20251001-v1:0,us.amazon.nova-pro-v1:0', ...extra })
const vertexChannel = (extra: Record<string, unknown> = {}) => create({ type: 41, key: account.json, base_url: vertex.url, other: 'us-east5', models: 'gemini-2.5-flash,claude-sonnet-4-5@20250929', ...extra })
const chat = (model: string) =>
  env.app.fetch('/v1/chat/completions', { method: 'POST', headers: { authorization: `Bearer ${env.key}`, 'content-type': 'application/json' }, body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }] }) })
const statusOf = async (id: number) => (await env.app.deps.repos.channels.findById(id))!.status

describe('channel test', () => {
  test('Bedrock: a signed Claude probe through invoke; ?model= a Nova one through Converse', async () => {
    const id = await bedrockChannel()
    const res = await call(env.app, 'GET', `/api/channel/test/${id}`, undefined, admin)
    expect(res.body).toMatchObject({ success: true, data: { status_code: 200, model: 'us.anthropic.claude-haiku-4-5-20251001-v1:0' } })
    const probe = bedrock.requests.at(-1)!
    expect(probe).toMatchObject({ operation: 'invoke', auth: 'sigv4', model: 'us.anthropic.claude-haiku-4-5-20251001-v1:0' })
    expect(probe.json.anthropic_version).toBe('bedrock-2023-05-31')
    expect(probe.json.max_tokens).toBeLessThanOrEqual(16)
    const nova = await call(env.app, 'GET', `/api/channel/test/${id}?model=us.amazon.nova-pro-v1:0`, undefined, admin)
    expect(nova.body.success).toBe(true)
    expect(bedrock.requests.at(-1)).toMatchObject({ operation: 'converse', auth: 'sigv4', json: { messages: [{ role: 'user', content: [{ text: 'hi' }] }] } })
  })

  test('Bedrock: a wrong secret fails the test with Bedrock\'s reason, the secret not repeated', async () => {
    const id = await bedrockChannel({ key: `${AKID}|${WRONG_SECRET}|us-east-1`, auto_ban: 0 })
    const res = await call(env.app, 'GET', `/api/channel/test/${id}`, undefined, admin)
    expect(res.body).toMatchObject({ success: false, data: { status_code: 403 } })
    expect(res.body.message).toContain('signature')
    expect(JSON.stringify(res.body)).not.toContain(WRONG_SECRET)
  })

  test('Vertex: Gemini and Claude probes with a minted token; a revoked token is minted again, the test still passes', async () => {
    const id = await vertexChannel()
    const gemini = await call(env.app, 'GET', `/api/channel/test/${id}`, undefined, admin)
    expect(gemini.body).toMatchObject({ success: true, data: { status_code: 200, model: 'gemini-2.5-flash' } })
    expect(vertex.requests.at(-1)).toMatchObject({ publisher: 'google', action: 'generateContent', location: 'us-east5', project: 'channels-project' })
    const claude = await call(env.app, 'GET', `/api/channel/test/${id}?model=claude-sonnet-4-5@20250929`, undefined, admin)
    expect(claude.body.success).toBe(true)
    expect(vertex.requests.at(-1)).toMatchObject({ publisher: 'anthropic', action: 'rawPredict', json: { anthropic_version: 'vertex-2023-10-16' } })
    const token = vertex.requests.at(-1)!.headers['authorization']!.slice('Bearer '.length)
    google.revoke(token)
    const exchanges = google.exchanges.length
    const again = await call(env.app, 'GET', `/api/channel/test/${id}`, undefined, admin)
    expect(again.body.success).toBe(true)
    expect(vertex.requests.map((r) => r.token === undefined)).toEqual([false, false, true, false]) // refused once, then a new token
    expect(google.exchanges.length).toBe(exchanges + 1)
  })
})

describe('fetch_models', () => {
  test('Bedrock: ListFoundationModels (text, on demand) and every page of ListInferenceProfiles, signed on the control plane', async () => {
    const id = await bedrockChannel()
    const res = await call(env.app, 'GET', `/api/channel/fetch_models/${id}`, undefined, admin)
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    // the embedding model and the Claude only callable through a profile are left out
    expect(res.body.data).toEqual(['amazon.nova-pro-v1:0', 'meta.llama3-1-8b-instruct-v1:0', 'us.anthropic.claude-sonnet-4-5-20250929-v1:0', 'us.amazon.nova-pro-v1:0', 'us.meta.llama3-1-8b-instruct-v1:0'])
    expect(bedrock.requests.map((r) => [r.operation, r.auth])).toEqual([['foundation-models', 'sigv4'], ['inference-profiles', 'sigv4'], ['inference-profiles', 'sigv4']])
    expect(bedrock.requests[0]!.path).toBe('/foundation-models')
  })

  test('Bedrock: with an API key (Bearer); a wrong secret is a 502 with Bedrock\'s reason, the secret not repeated', async () => {
    const keyed = await bedrockChannel({ key: `${API_KEY}|us-east-1` })
    const res = await call(env.app, 'GET', `/api/channel/fetch_models/${keyed}`, undefined, admin)
    expect(res.body.data).toContain('amazon.nova-pro-v1:0')
    expect(bedrock.requests.every((r) => r.auth === 'bearer')).toBe(true)
    const wrong = await bedrockChannel({ key: `${AKID}|${WRONG_SECRET}|us-east-1` })
    const refused = await call(env.app, 'GET', `/api/channel/fetch_models/${wrong}`, undefined, admin)
    expect(refused.status).toBe(502)
    expect(refused.body.message).toContain('upstream 403')
    expect(refused.body.message).toContain('signature')
    expect(refused.body.message).not.toContain(WRONG_SECRET)
  })

  test('Vertex: Model Garden\'s Google and Anthropic lists, every page, with the account\'s token; Claude named with its version', async () => {
    const id = await vertexChannel()
    const res = await call(env.app, 'GET', `/api/channel/fetch_models/${id}`, undefined, admin)
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    // image models and deprecated ones are left out
    expect(res.body.data).toEqual(['gemini-2.5-pro', 'gemini-2.5-flash', 'text-embedding-005', 'claude-sonnet-4-5@20250929', 'claude-opus-4-1@20250805'])
    expect(vertex.requests.map((r) => `${r.path}?${r.query.pageToken ?? ''}`)).toEqual([
      '/v1beta1/publishers/google/models?', '/v1beta1/publishers/google/models?2', '/v1beta1/publishers/google/models?4', '/v1beta1/publishers/anthropic/models?',
    ])
    // a revoked token: dropped, a new one minted, the list fetched
    google.revoke(vertex.requests.at(-1)!.headers['authorization']!.slice('Bearer '.length))
    vertex.reset()
    const again = await call(env.app, 'GET', `/api/channel/fetch_models/${id}`, undefined, admin)
    expect(again.body.data).toHaveLength(5)
    expect(vertex.requests[0]!.token).toBeUndefined()
    expect(vertex.requests.slice(1).every((r) => r.token !== undefined)).toBe(true)
  })
})

describe('failover and health', () => {
  test('a Bedrock signature refused: the next channel answers, the refused one is disabled at once (a dead key), nothing secret shown', async () => {
    const bad = await bedrockChannel({ key: `${AKID}|${WRONG_SECRET}|us-east-1`, models: 'nova-fo', model_mapping: { 'nova-fo': 'us.amazon.nova-lite-v1:0' }, priority: 10 })
    const good = await bedrockChannel({ models: 'nova-fo', model_mapping: { 'nova-fo': 'us.amazon.nova-lite-v1:0' }, priority: 0 })
    bedrock.setBehavior({ text: 'From the good one.' })
    const res = await chat('nova-fo')
    const text = await res.text()
    expect(res.status, text).toBe(200)
    expect(JSON.parse(text).choices[0].message.content).toBe('From the good one.')
    expect(env.outcomes[0]!.attempts.map((a) => [a.channelId, a.status])).toEqual([[bad, 403], [good, 200]])
    expect(await statusOf(bad)).toBe(3)
    expect(await statusOf(good)).toBe(1)
    for (const secret of [WRONG_SECRET, SECRET, AKID]) expect(text).not.toContain(secret)
  })

  test('with auto-disable off, a refused signature counts as the channel\'s failure and the client hears only that it failed', async () => {
    const id = await bedrockChannel({ key: `${AKID}|${WRONG_SECRET}|us-east-1`, models: 'nova-alone', auto_ban: 0 })
    const res = await chat('nova-alone')
    const text = await res.text()
    expect(res.status).toBe(503)
    expect(text).toContain('signature')
    for (const secret of [WRONG_SECRET, AKID]) expect(text).not.toContain(secret)
    expect(await env.app.deps.routing.health.failures(id)).toBe(1)
    expect(await statusOf(id)).toBe(1)
  })

  test('a Vertex token refused (revoked): the next channel answers, the token is minted again for the next call, the channel stays', async () => {
    const model = 'gemini-fo'
    const vertexId = await vertexChannel({ models: model, model_mapping: { [model]: 'gemini-2.5-flash' }, priority: 10 })
    const fallback = await bedrockChannel({ models: model, model_mapping: { [model]: 'us.amazon.nova-lite-v1:0' }, priority: 0 })
    vertex.setBehavior({ text: 'From Vertex.' })
    bedrock.setBehavior({ text: 'From Bedrock.' })
    expect(await (await chat(model)).json()).toMatchObject({ choices: [{ message: { content: 'From Vertex.' } }] })
    const first = vertex.requests.at(-1)!.headers['authorization']!
    google.revoke(first.slice('Bearer '.length))
    const exchanges = google.exchanges.length

    env.outcomes.length = 0
    const res = await chat(model)
    const text = await res.text()
    expect(JSON.parse(text).choices[0].message.content).toBe('From Bedrock.')
    expect(env.outcomes[0]!.attempts.map((a) => [a.channelId, a.status])).toEqual([[vertexId, 401], [fallback, 200]])
    expect(text).not.toContain('ya29.')
    expect(await env.app.deps.routing.health.failures(vertexId)).toBe(1)
    expect(await statusOf(vertexId)).toBe(1) // a stale token is not a dead key

    env.outcomes.length = 0
    expect(await (await chat(model)).json()).toMatchObject({ choices: [{ message: { content: 'From Vertex.' } }] })
    expect(google.exchanges.length).toBe(exchanges + 1)
    expect(vertex.requests.at(-1)!.headers['authorization']).not.toBe(first)
    expect(await env.app.deps.routing.health.failures(vertexId)).toBe(0)
  })

  test('an upstream error that echoes the access key id and the secret reaches neither the client nor the log', async () => {
    await bedrockChannel({ models: 'nova-echo', model_mapping: { 'nova-echo': 'us.amazon.nova-lite-v1:0' } })
    bedrock.setBehavior({ error: { status: 400, message: `The key ${AKID} with secret ${SECRET} is not allowed here.` } })
    const res = await chat('nova-echo')
    const text = await res.text()
    expect(res.status).toBe(400)
    expect(text).toContain('is not allowed here')
    for (const secret of [SECRET, AKID]) {
      expect(text).not.toContain(secret)
      expect(env.outcomes[0]!.error).not.toContain(secret)
    }
  })
})

describe('the management API', () => {
  test('a Bedrock key is checked: its format and region, each key of a pool, never quoted back', async () => {
    const cases: [string, RegExp][] = [
      ['just-one-part', /^key: a Bedrock key needs its region/],
      [`${AKID}|${SECRET}|mars-north-9x`, /^key: the key's region is not an AWS region/],
      [`${AKID}||us-east-1`, /^key: the key has an empty part/],
      [`${GOOD}\n${AKID}|${SECRET}`, /^key 2 of 2: the key's region/],
      ['a|b|c|d', /^key: the key has 4 parts/],
    ]
    for (const [key, message] of cases) {
      const res = await call(env.app, 'POST', '/api/channel/', { type: 33, name: 'b', key, models: 'm' }, admin)
      expect(res.status, key).toBe(400)
      expect(res.body.message).toMatch(message)
      expect(res.body.message).not.toContain(SECRET)
    }
    // no base URL needed: the key's region makes it
    const ok = await call(env.app, 'POST', '/api/channel/', { type: 33, name: 'b', key: `${GOOD}\n${API_KEY}|eu-west-1`, models: 'm' }, admin)
    expect(ok.status, JSON.stringify(ok.body)).toBe(200)
    expect(ok.body.data.key_count).toBe(2)
  })

  test('a Vertex key is a service account whose private key imports, one key whatever its lines; other is a region', async () => {
    const fields = account.fields
    const cases: [unknown, RegExp][] = [
      ['not json at all', /^key: the key is not JSON/],
      [JSON.stringify({ ...fields, private_key: undefined }), /^key: the service account JSON key is missing private_key/],
      [JSON.stringify({ ...fields, type: 'authorized_user' }), /^key: the key is a Google "authorized_user" credential/],
      [JSON.stringify({ ...fields, private_key: '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n' }), /^key: private_key of .* is not an RSA private key/],
    ]
    for (const [key, message] of cases) {
      const res = await call(env.app, 'POST', '/api/channel/', { type: 41, name: 'v', key, models: 'm' }, admin)
      expect(res.status, String(key).slice(0, 40)).toBe(400)
      expect(res.body.message).toMatch(message)
      expect(res.body.message).not.toContain('PRIVATE KEY')
    }
    for (const other of ['not a region!', '{"default": 5}', '{"default":']) {
      const res = await call(env.app, 'POST', '/api/channel/', { type: 41, name: 'v', key: account.json, other, models: 'm' }, admin)
      expect(res.status, other).toBe(400)
      expect(res.body.message).toMatch(/^other: /)
    }
    // batch mode makes one channel per key: a pretty-printed key file is still one key
    const ok = await call(env.app, 'POST', '/api/channel/', { mode: 'batch', channel: { type: 41, name: 'v', key: account.json, other: '{"default": "us-east5"}', models: 'm' } }, admin)
    expect(ok.status, JSON.stringify(ok.body)).toBe(200)
    expect(ok.body.data).toHaveLength(1)
    expect(ok.body.data[0].key_count).toBe(1)
    // a new region moves the key to another host: the edit carries it again (keys stay where they were sent)
    const edit = await call(env.app, 'PUT', '/api/channel/', { id: ok.body.data[0].id, other: 'mars', key: account.json }, admin)
    expect(edit.status).toBe(200) // a well-formed region name
    const bad = await call(env.app, 'PUT', '/api/channel/', { id: ok.body.data[0].id, other: 'Not/A Region' }, admin)
    expect(bad.status).toBe(400)
  })

  test('GET /api/channel/models offers both types, with what their key and other hold', async () => {
    const res = await call(env.app, 'GET', '/api/channel/models', undefined, admin)
    const byType = new Map((res.body.data as any[]).map((t) => [t.type, t]))
    expect(byType.get(33)).toMatchObject({ name: 'AWS Bedrock', default_base_url: '', key_required: true, note: expect.stringContaining('ACCESS_KEY_ID|SECRET_ACCESS_KEY|REGION') })
    expect(byType.get(41)).toMatchObject({ name: 'Google Vertex AI', default_base_url: '', key_required: true, other_field: { required: false } })
  })
})
