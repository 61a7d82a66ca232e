import { afterAll, beforeAll, expect, test } from 'bun:test'
import { login } from '../helpers/accounts'
import type { RelayEnv } from '../helpers/relay-env'
import { startHardeningEnv } from './env'
import { expectErrorShape, shapeOf } from './shapes'

/**
 * Found by the fuzz: a body nested 10,000 levels deep (20 KiB of brackets) held the event loop for 1–3 s on any
 * route where it failed a schema (Elysia's ValidationError pretty-prints the whole value, quadratic in its
 * depth), and at 100,000 levels the same request was a 500 (stack overflow). Now /api bodies deeper than 128
 * levels are a 400 before any schema sees them, a relay body is checked for depth when it fails its schema, and
 * a stack overflow on the client's nesting anywhere else is a 400, never a 500.
 */
let env: RelayEnv
let root: string
beforeAll(async () => {
  env = await startHardeningEnv()
  await env.addChannel({ type: 1 })
  await env.addChannel({ type: 14 })
  root = await login(env.app)
  // the first relay request loads and compiles what the relay needs (~1 s here): not what is measured below
  for (const model of ['gpt-4o', 'claude-sonnet-4-5']) {
    const warm = await env.app.fetch('/v1/messages', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${env.key}`, 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model, max_tokens: 5, messages: [{ role: 'user', content: 'hi' }], tools: [{ name: 't', input_schema: { type: 'object' } }] }),
    })
    expect(warm.status).toBe(200)
  }
})
afterAll(() => env.stop())

const nested = (depth: number, kind: 'array' | 'object') => (kind === 'array' ? '['.repeat(depth) + ']'.repeat(depth) : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth))

const routes = (): { path: string; method?: string; servable?: boolean; headers: Record<string, string>; wrap: (inner: string) => string }[] => [
  { path: '/api/channel/batch', headers: { cookie: root }, wrap: (inner: string) => `{"ids":${inner}}` },
  { path: '/api/user/login', headers: {}, wrap: (inner: string) => `{"username":${inner},"password":"x"}` },
  { path: '/api/option/', method: 'PUT', headers: { cookie: root }, wrap: (inner: string) => `{"key":"ServerAddress","value":${inner}}` },
  { path: '/v1/chat/completions', headers: { authorization: `Bearer ${env.key}` }, wrap: (inner: string) => `{"model":"gpt-4o","messages":[{"role":"user","content":${inner}}]}` },
  // valid for its schema, the nesting inside open fields: passed through or converted (a 200), or a 400 when
  // something walks the body too deep (metering's request weight, JSON.stringify, at ~50,000 levels); never a
  // 5xx. Not timed: JavaScriptCore's JSON.stringify takes ~0.5 s to fail on 100,000 levels (see docs/security.md)
  { path: '/v1/messages', servable: true, headers: { authorization: `Bearer ${env.key}`, 'anthropic-version': '2023-06-01' }, wrap: (inner: string) => `{"model":"claude-sonnet-4-5","max_tokens":5,"messages":[{"role":"user","content":[{"type":"text","text":"hi","x":${inner}}]}],"tools":[{"name":"t","input_schema":${inner}}]}` },
]

for (const depth of [129, 10_000, 100_000]) {
  test(`${depth} levels: a quick 400 in the route's shape on every route`, async () => {
    for (const r of routes()) {
      for (const kind of ['array', 'object'] as const) {
        // CPU time, not wall time: the fault was the event loop busy for seconds, and a loaded machine stretches
        // the wall clock of even a quick answer (the app runs in this process, so its work is this process's CPU)
        const started = process.cpuUsage()
        const res = await env.app.fetch(r.path, { method: r.method ?? 'POST', headers: { 'content-type': 'application/json', ...r.headers }, body: r.wrap(nested(depth, kind)) })
        const body = await res.json()
        const spent = process.cpuUsage(started)
        const elapsed = (spent.user + spent.system) / 1000
        if (res.status >= 500) throw new Error(`${r.path} ${kind} ${depth}: ${res.status} ${JSON.stringify(body)}`)
        if (elapsed > 1000 && !r.servable) throw new Error(`${r.path} ${kind} ${depth}: ${elapsed.toFixed(0)} ms of CPU for ${res.status}`)
        if (r.servable && res.status === 200) continue
        if (res.status !== 400) throw new Error(`${r.path} ${kind} ${depth}: ${res.status} ${JSON.stringify(body).slice(0, 300)}`)
        expect(expectErrorShape(shapeOf(r.path), body)).toMatch(/nest/)
      }
    }
  }, 60_000) // 100,000 levels through five routes: seconds of work on a loaded machine
}

test('nesting up to the bound is still served', async () => {
  const schema = JSON.parse('{"type":"object","properties":{"a":'.repeat(60) + '{"type":"string"}' + '}}'.repeat(60))
  const res = await env.app.fetch('/v1/messages', {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${env.key}`, 'anthropic-version': '2023-06-01' },
    body: JSON.stringify({ model: 'gpt-4o', max_tokens: 5, messages: [{ role: 'user', content: 'hi' }], tools: [{ name: 't', input_schema: schema }] }),
  })
  expect(res.status).toBe(200)
  const option = await env.app.fetch('/api/channel/batch', { method: 'POST', headers: { 'content-type': 'application/json', cookie: root }, body: `{"ids":${'['.repeat(100)}1${']'.repeat(100)}}` })
  expect(option.status).toBe(400)
  expect((await option.json()).message).toContain('"ids.0"') // the schema's own error: deep, but within the bound
})
