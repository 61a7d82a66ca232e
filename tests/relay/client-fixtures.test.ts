import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startRelayEnv, UPSTREAM_KEY, type RelayEnv } from '../helpers/relay-env'

/**
 * Requests captured from real clients (tests/fixtures/clients), replayed through the gateway to a
 * same-protocol channel: the upstream must get them unchanged (raw bytes when no mapping applies; parsed
 * equal with only the model changed when a mapping does), with the client's anthropic-beta forwarded.
 */
interface Fixture {
  method: string
  url: string
  headers: Record<string, string>
  body: Record<string, unknown>
}

const dir = join(import.meta.dir, '../fixtures/clients')
const fixtures = readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .map((file) => ({ file, ...(JSON.parse(readFileSync(join(dir, file), 'utf8')) as Fixture) }))

/** The channel type that speaks each client route's protocol natively. */
function channelTypeFor(url: string): number {
  if (url.startsWith('/v1/messages')) return 14
  return 1 // OpenAI speaks chat completions and responses
}

let env: RelayEnv

beforeAll(async () => {
  env = await startRelayEnv()
  await env.app.deps.options.set('HostedToolPrice', { web_search: 0 }) // Codex's web search goes on as sent (see fixtures/helpers.ts)
  const byType = new Map<number, Set<string>>()
  for (const f of fixtures) {
    const type = channelTypeFor(f.url)
    byType.set(type, (byType.get(type) ?? new Set()).add(f.body.model as string))
  }
  for (const [type, models] of byType) await env.addChannel({ type, name: `native-${type}`, models: [...models].join(','), autoBan: 0 })
  await env.addChannel({ type: 14, name: 'mapped-14', models: 'fixture-mapped-claude', modelMapping: JSON.stringify({ 'fixture-mapped-claude': 'claude-upstream-model' }), autoBan: 0 })
  await env.addChannel({ type: 1, name: 'mapped-1', models: 'fixture-mapped-gpt', modelMapping: JSON.stringify({ 'fixture-mapped-gpt': 'gpt-upstream-model' }), autoBan: 0 })
})
afterAll(() => env.stop())

/** The fixture's headers with our gateway key in place of the captured one. */
function clientHeaders(f: Fixture): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(f.headers)) {
    const lower = name.toLowerCase()
    if (lower === 'host' || lower === 'content-length') continue
    if (!/^[\x20-\x7e\t]*$/.test(value)) continue // cut to 200 characters with an ellipsis: not a sendable header any more
    if (lower === 'authorization') out[name] = `Bearer ${env.key}`
    else if (lower === 'x-api-key') out[name] = env.key
    else out[name] = value
  }
  if (!Object.keys(out).some((n) => ['authorization', 'x-api-key'].includes(n.toLowerCase()))) out.authorization = `Bearer ${env.key}`
  return out
}

async function replay(f: Fixture, raw: string) {
  env.upstream.reset()
  env.upstream.setBehavior({ text: 'ok' })
  const res = await env.app.fetch(f.url, { method: f.method, headers: clientHeaders(f), body: raw })
  const text = await res.text()
  expect(env.upstream.requests, `${res.status} ${text.slice(0, 300)}`).toHaveLength(1)
  return { res, text, sent: env.upstream.requests[0]! }
}

/** What the fake itself answers to these bytes: the relay must pass the same status on. */
async function directStatus(f: Fixture, sentBody: string, path: string): Promise<number> {
  const headers: Record<string, string> = { 'content-type': 'application/json' }
  if (path.startsWith('/v1/messages')) {
    headers['x-api-key'] = UPSTREAM_KEY
    headers['anthropic-version'] = f.headers['anthropic-version'] ?? '2023-06-01'
    if (f.headers['anthropic-beta']) headers['anthropic-beta'] = f.headers['anthropic-beta'] // the relay forwards it too
  } else headers.authorization = `Bearer ${UPSTREAM_KEY}`
  const res = await fetch(env.upstream.url + path, { method: 'POST', headers, body: sentBody })
  await res.text()
  return res.status
}

describe('captured client requests reach a same-protocol upstream unchanged', () => {
  for (const f of fixtures) {
    test(`${f.file}: raw bytes, headers forwarded`, async () => {
      const raw = JSON.stringify(f.body)
      const { res, text, sent } = await replay(f, raw)
      // a priced request without an output cap (Codex sends none) goes with metering's: one member in front, the rest as sent
      const cap = ['max_output_tokens', 'max_completion_tokens'].find((k) => f.body[k] === undefined && sent.json[k] !== undefined)
      expect(sent.body).toBe(cap ? `{"${cap}":${sent.json[cap]},${raw.slice(1)}` : raw)
      if (cap) expect(sent.json[cap]).toBe(128_000) // gpt-5's maximum output: reasoning is not cut short
      expect(sent.path).toBe(new URL(f.url, 'http://x').pathname)
      if (f.url.startsWith('/v1/messages')) {
        expect(sent.headers['x-api-key']).toBe(UPSTREAM_KEY)
        expect(sent.headers['anthropic-version']).toBe(f.headers['anthropic-version']!)
        if (f.headers['anthropic-beta']) expect(sent.headers['anthropic-beta']).toBe(f.headers['anthropic-beta'])
      } else {
        expect(sent.headers.authorization).toBe(`Bearer ${UPSTREAM_KEY}`)
      }
      // gateway credentials never go upstream
      expect(JSON.stringify(sent.headers)).not.toContain(env.key)
      expect(res.status).toBe(await directStatus(f, sent.body, sent.path))
      if (res.status === 200 && f.body.stream === true) {
        expect(res.headers.get('content-type')).toContain('text/event-stream')
        expect(text.length).toBeGreaterThan(0)
      }
    })

    test(`${f.file}: pretty-printed with a mapped model → only the model differs, bytes kept`, async () => {
      const mapped = f.url.startsWith('/v1/messages') ? ['fixture-mapped-claude', 'claude-upstream-model'] : ['fixture-mapped-gpt', 'gpt-upstream-model']
      const raw = JSON.stringify({ ...f.body, model: mapped[0] }, null, 2)
      const { sent } = await replay(f, raw)
      expect(sent.json).toEqual({ ...f.body, model: mapped[1] })
      expect(sent.body).toBe(raw.replace(`"model": "${mapped[0]}"`, `"model": "${mapped[1]}"`))
    })
  }
})
