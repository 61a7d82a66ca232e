import OpenAI from 'openai'
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { call } from '../helpers/test-app'
import { startRelayEnv, UPSTREAM_KEY, type RelayEnv } from '../helpers/relay-env'
import { userHeaders } from '../modules/channels/helpers'

/** What the relay does with channel state: auto-disable and probe, tags, model mapping, key rotation. */
let env: RelayEnv
let openai: OpenAI

beforeAll(async () => {
  env = await startRelayEnv()
  openai = new OpenAI({ apiKey: env.key, baseURL: `${env.app.url}/v1`, maxRetries: 0 })
})
afterAll(() => env.stop())
beforeEach(() => {
  env.upstream.reset()
  env.upstream.setKeys([UPSTREAM_KEY])
  env.outcomes.length = 0
})

const row = async (id: number) => (await env.app.deps.repos.channels.findById(id))!
const abilities = (id: number) => env.app.deps.repos.channels.abilities(id)

/** Health writes are not awaited by the relay: give them a moment. */
async function settled(check: () => boolean | Promise<boolean>, ms = 1000): Promise<boolean> {
  const end = Date.now() + ms
  while (Date.now() < end) {
    if (await check()) return true
    await Bun.sleep(5)
  }
  return check()
}

function send(model: string, key = env.key) {
  return env.app.fetch('/v1/chat/completions', {
    method: 'POST',
    headers: { authorization: `Bearer ${key}` },
    body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }] }),
  })
}

describe('automatic disable and re-enable', () => {
  test('one failure does not disable; three in a row (three requests) do: status 3 and abilities off', async () => {
    const id = await env.addChannel({ type: 1, name: 'flaky', models: 'health-3', autoBan: 1 })
    env.upstream.setBehavior({ error: { status: 500, message: 'boom' } })

    // the count is what the disable decision follows: once it shows the failure, the channel was kept or not
    const counted = (n: number) => settled(async () => (await env.app.deps.routing.health.failures(id)) === n, 10_000)
    expect((await send('health-3')).status).toBe(503)
    expect(await counted(1)).toBe(true)
    expect((await row(id)).status).toBe(1)
    expect((await abilities(id)).every((a) => a.enabled)).toBe(true)

    expect((await send('health-3')).status).toBe(503)
    expect(await counted(2)).toBe(true)
    expect((await row(id)).status).toBe(1)

    expect((await send('health-3')).status).toBe(503)
    expect(await settled(async () => (await row(id)).status === 3)).toBe(true)
    expect((await abilities(id)).length).toBeGreaterThan(0)
    expect((await abilities(id)).every((a) => !a.enabled)).toBe(true)

    // now it is out of routing: no channel serves the model
    const res = await send('health-3')
    expect(res.status).toBe(404)
    expect(env.upstream.requests).toHaveLength(3)
  })

  test('a success in between resets the count', async () => {
    const id = await env.addChannel({ type: 1, name: 'wobbly', models: 'health-reset', autoBan: 1 })
    env.upstream.setBehavior([{ error: { status: 500 } }, { error: { status: 500 } }, { text: 'ok' }, { error: { status: 500 } }, { error: { status: 500 } }])
    for (let i = 0; i < 5; i++) await send('health-reset')
    await Bun.sleep(50)
    expect((await row(id)).status).toBe(1)
  })

  test('a channel without auto_ban is never disabled', async () => {
    const id = await env.addChannel({ type: 1, name: 'sturdy', models: 'health-noban', autoBan: 0 })
    env.upstream.setBehavior({ error: { status: 401, message: 'invalid api key' } })
    for (let i = 0; i < 4; i++) await send('health-noban')
    await Bun.sleep(50)
    expect((await row(id)).status).toBe(1)
  })

  test('an upstream 401 disables at once; the probe re-enables it when the upstream is healthy again', async () => {
    const id = await env.addChannel({ type: 1, name: 'revoked', models: 'health-401', autoBan: 1 })
    env.upstream.setKeys(['sk-some-other-key-entirely-0000'])
    const res = await send('health-401')
    expect(res.status).toBe(503)
    const body = (await res.json()) as any
    expect(body.error.message).toContain('401')
    expect(JSON.stringify(body)).not.toContain(UPSTREAM_KEY)
    expect(await settled(async () => (await row(id)).status === 3)).toBe(true)
    expect((await abilities(id)).every((a) => !a.enabled)).toBe(true)

    // still broken: the probe tests it and leaves it off
    const stillDead = await env.app.deps.routing.probe.runOnce()
    expect(stillDead.reenabled).not.toContain(id)
    expect((await row(id)).status).toBe(3)

    env.upstream.setKeys([UPSTREAM_KEY])
    const pass = await env.app.deps.routing.probe.runOnce()
    expect(pass.reenabled).toContain(id)
    expect((await row(id)).status).toBe(1)
    expect((await abilities(id)).every((a) => a.enabled)).toBe(true)
    const probeRequest = env.upstream.requests.at(-1)!
    expect(probeRequest.headers.authorization).toBe(`Bearer ${UPSTREAM_KEY}`)

    env.upstream.setBehavior({ text: 'back again' })
    const ok = await openai.chat.completions.create({ model: 'health-401', messages: [{ role: 'user', content: 'hi' }] })
    expect(ok.choices[0]!.message.content).toBe('back again')
  })

  test('the probe leaves manually disabled channels alone', async () => {
    const id = await env.addChannel({ type: 1, name: 'parked', models: 'health-manual', status: 2 })
    const pass = await env.app.deps.routing.probe.runOnce()
    expect(pass.reenabled).not.toContain(id)
    expect((await row(id)).status).toBe(2)
  })
})

describe('tags over the admin API', () => {
  test('tag disabled → relay says model not found; tag enabled → it works again', async () => {
    const admin = await userHeaders(env.app)
    const created = await call(env.app, 'POST', '/api/channel/', { type: 1, name: 'tagged', key: UPSTREAM_KEY, base_url: env.upstream.url, models: 'tag-model', tag: 'blue' }, admin)
    expect(created.status, JSON.stringify(created.body)).toBe(200)
    env.upstream.setBehavior({ text: 'tagged answer' })
    expect((await send('tag-model')).status).toBe(200)

    const off = await call(env.app, 'POST', '/api/channel/tag/disabled', { tag: 'blue' }, admin)
    expect(off.status).toBe(200)
    expect(off.body.data).toBe(1)
    const refused = await send('tag-model')
    expect(refused.status).toBe(404)
    const body = (await refused.json()) as any
    expect(body.error.message).toContain('model not found')
    expect(body.error.message).toContain('tag-model')

    const on = await call(env.app, 'POST', '/api/channel/tag/enabled', { tag: 'blue' }, admin)
    expect(on.status).toBe(200)
    const again = await openai.chat.completions.create({ model: 'tag-model', messages: [{ role: 'user', content: 'hi' }] })
    expect(again.choices[0]!.message.content).toBe('tagged answer')
  })
})

describe('model mapping', () => {
  test('gpt-4o → gpt-4o-mini: the upstream sees the mapped model and otherwise the client bytes', async () => {
    await env.addChannel({ type: 1, name: 'mapped', models: 'gpt-4o', modelMapping: JSON.stringify({ 'gpt-4o': 'gpt-4o-mini' }) })
    env.upstream.setBehavior({ text: 'mapped answer' })
    // odd spacing, key order and escapes a re-serialisation would change
    const raw = '{ "messages" : [ {"role":"user","content":"h\\u00e9llo \\/ world"} ],\n  "model": "gpt-4o", "temperature": 0.50, "x_extra": {"b":1,"a":[1.0,2]} }'
    const res = await fetch(`${env.app.url}/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${env.key}` }, body: raw })
    expect(res.status).toBe(200)
    const answer = (await res.json()) as any
    expect(answer.choices[0].message.content).toBe('mapped answer')
    const sent = env.upstream.requests[0]!
    expect(sent.json.model).toBe('gpt-4o-mini')
    // no cap from the client: metering's goes in front (tests/metering/output-cap.test.ts), the rest as sent
    expect(sent.body).toBe(`{"max_completion_tokens":16384,${raw.slice(1).replace('"model": "gpt-4o"', '"model": "gpt-4o-mini"')}`)
    expect(env.outcomes[0]!.upstreamModel).toBe('gpt-4o-mini')
  })

  test('through the SDK, stream: the mapped model goes up, stream_options is added, the rest is unchanged', async () => {
    env.upstream.setBehavior({ text: ['a', 'b'] })
    const final = await openai.chat.completions.stream({ model: 'gpt-4o', messages: [{ role: 'user', content: 'x' }], temperature: 0.2 }).finalChatCompletion()
    expect(final.choices[0]!.message.content).toBe('ab')
    const sent = env.upstream.requests[0]!.json
    expect(sent).toEqual({ max_completion_tokens: 16_384, model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'x' }], temperature: 0.2, stream: true, stream_options: { include_usage: true } })
  })
})

describe('multi-key rotation', () => {
  test('a channel with 3 keys uses each key twice over 6 requests, in turn', async () => {
    const keys = ['sk-rotation-key-one-1111111111', 'sk-rotation-key-two-2222222222', 'sk-rotation-key-three-33333333']
    env.upstream.setKeys(keys)
    await env.addChannel({ type: 1, name: 'rotating', models: 'rot-model', keyText: keys.join('\n') })
    for (let i = 0; i < 6; i++) {
      const res = await send('rot-model')
      expect(res.status).toBe(200)
    }
    const used = env.upstream.requests.map((r) => r.headers.authorization)
    expect(used).toEqual([...keys, ...keys].map((k) => `Bearer ${k}`))
  })

  test('a revoked key of a pool stops being used; the channel stays on and serves with the others', async () => {
    const live = ['sk-pool-live-one-1111111111', 'sk-pool-live-two-2222222222']
    const revoked = 'sk-pool-revoked-99999999999'
    env.upstream.setKeys(live)
    const id = await env.addChannel({ type: 1, name: 'pool', models: 'pool-model', autoBan: 1, keyText: [live[0], revoked, live[1]].join('\n') })
    const statuses: number[] = []
    for (let i = 0; i < 6; i++) statuses.push((await send('pool-model')).status)
    // the one request that met the revoked key failed over to nothing (one channel) and got its 503
    expect(statuses.filter((s) => s !== 200)).toEqual([503])
    expect(await settled(async () => (await row(id)).status === 1)).toBe(true)
    expect((await abilities(id)).every((a) => a.enabled)).toBe(true)
    const used = env.upstream.requests.map((r) => r.headers.authorization)
    expect(used.filter((k) => k === `Bearer ${revoked}`)).toHaveLength(1)
    // after it, the two live keys alternate
    const last = used.slice(-4)
    expect(new Set(last)).toEqual(new Set(live.map((k) => `Bearer ${k}`)))
    expect(last.every((k, i) => i === 0 || k !== last[i - 1])).toBe(true)
  })

  test('anthropic channel: keys rotate in x-api-key', async () => {
    const keys = ['sk-ant-rot-aaaaaaaaaaaaaaaa', 'sk-ant-rot-bbbbbbbbbbbbbbbb']
    env.upstream.setKeys(keys)
    await env.addChannel({ type: 14, name: 'rotating-ant', models: 'rot-claude', keyText: keys.join('\n') })
    for (let i = 0; i < 4; i++) {
      const res = await env.app.fetch('/v1/messages', {
        method: 'POST',
        headers: { 'x-api-key': env.key, 'anthropic-version': '2023-06-01' },
        body: JSON.stringify({ model: 'rot-claude', max_tokens: 8, messages: [{ role: 'user', content: 'hi' }] }),
      })
      expect(res.status).toBe(200)
    }
    expect(env.upstream.requests.map((r) => r.headers['x-api-key'])).toEqual([...keys, ...keys])
  })
})
