import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { RelayEnv } from '../helpers/relay-env'
import { call, ROOT_PASSWORD } from '../helpers/test-app'
import { login } from '../helpers/accounts'
import { stopLoginClock } from '../helpers/login-clock'
import { startHardeningEnv } from './env'

/**
 * Issues #13 and #28: the client's address is the socket's peer (127.0.0.1 here) whatever the client writes in
 * its headers; with TRUST_PROXY it is the right-most `X-Forwarded-For` address that is not a trusted proxy, so an
 * entry the client wrote left of what its proxy appended is never read. That holds for every route that reads an
 * address: IP allow lists on each relay route (HEAD included, and the Gemini routes with each of their key
 * carriers), the login limiter, and the IP in log rows. Through Debian's nginx: tests/multi-node/nginx.test.ts.
 */
const FORGED = { 'x-forwarded-for': '10.1.2.3', 'x-real-ip': '10.1.2.3', forwarded: 'for=10.1.2.3' }

type Probe = { name: string; method: string; path: (key: string) => string; headers: (key: string) => Record<string, string>; body?: unknown }
const chat = { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }
const gemini = { contents: [{ parts: [{ text: 'hi' }] }] }
const bearer = (key: string) => ({ authorization: `Bearer ${key}` })
const anthropic = (key: string) => ({ 'x-api-key': key, 'anthropic-version': '2023-06-01' })
const goog = (key: string) => ({ 'x-goog-api-key': key })
const fixed = (path: string) => () => path

/** Every route that checks a key's allow list, with each way of sending the key the route accepts. */
const PROBES: Probe[] = [
  { name: 'POST /v1/chat/completions', method: 'POST', path: fixed('/v1/chat/completions'), headers: bearer, body: chat },
  { name: 'POST /v1/responses', method: 'POST', path: fixed('/v1/responses'), headers: bearer, body: { model: 'gpt-4o', input: 'hi' } },
  { name: 'POST /v1/messages', method: 'POST', path: fixed('/v1/messages'), headers: anthropic, body: { model: 'claude-sonnet-4-5', max_tokens: 8, messages: [{ role: 'user', content: 'hi' }] } },
  { name: 'POST /v1/messages/count_tokens', method: 'POST', path: fixed('/v1/messages/count_tokens'), headers: anthropic, body: { model: 'claude-sonnet-4-5', messages: [{ role: 'user', content: 'hi' }] } },
  { name: 'GET /v1/models', method: 'GET', path: fixed('/v1/models'), headers: bearer },
  { name: 'HEAD /v1/models', method: 'HEAD', path: fixed('/v1/models'), headers: bearer },
  { name: 'GET /v1/models (x-api-key)', method: 'GET', path: fixed('/v1/models'), headers: anthropic },
  { name: 'GET /v1/models/gpt-4o', method: 'GET', path: fixed('/v1/models/gpt-4o'), headers: bearer },
  { name: 'HEAD /v1/models/gpt-4o', method: 'HEAD', path: fixed('/v1/models/gpt-4o'), headers: bearer },
  { name: 'GET /v1beta/models (x-goog-api-key)', method: 'GET', path: fixed('/v1beta/models'), headers: goog },
  { name: 'HEAD /v1beta/models', method: 'HEAD', path: fixed('/v1beta/models'), headers: goog },
  { name: 'GET /v1beta/models/{model} (?key=)', method: 'GET', path: (key) => `/v1beta/models/gemini-2.5-flash?key=${key}`, headers: () => ({}) },
  { name: 'GET /v1/models (?key=)', method: 'GET', path: (key) => `/v1/models?key=${key}`, headers: () => ({}) },
  { name: 'POST /v1beta/…:generateContent (?key=)', method: 'POST', path: (key) => `/v1beta/models/gemini-2.5-flash:generateContent?key=${key}`, headers: () => ({}), body: gemini },
  { name: 'POST /v1beta/…:streamGenerateContent (x-goog-api-key)', method: 'POST', path: fixed('/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse'), headers: goog, body: gemini },
  { name: 'POST /v1/models/…:generateContent (Bearer)', method: 'POST', path: fixed('/v1/models/gemini-2.5-flash:generateContent'), headers: bearer, body: gemini },
  { name: 'GET /api/usage/token/', method: 'GET', path: fixed('/api/usage/token/'), headers: bearer },
]

async function probe(env: RelayEnv, p: Probe, key: string, extra: Record<string, string>) {
  const res = await env.app.fetch(p.path(key), {
    method: p.method,
    headers: { ...(p.body ? { 'content-type': 'application/json' } : {}), ...p.headers(key), ...extra },
    body: p.body ? JSON.stringify(p.body) : undefined,
  })
  return { status: res.status, text: await res.text() }
}

async function setUp(env: RelayEnv) {
  await env.addChannel({ type: 1 })
  await env.addChannel({ type: 14 })
  await env.addChannel({ type: 24 })
  return { far: await env.newKey({ allow_ips: '10.1.2.3' }), local: await env.newKey({ allow_ips: '127.0.0.1' }) }
}

/** The IP of the log row of the relay request that answered with `requestId`. */
async function loggedIp(env: RelayEnv, requestId: string | null, cookie: string): Promise<string> {
  const res = await call(env.app, 'GET', `/api/log/?request_id=${requestId}`, undefined, { cookie })
  expect(res.body.data.total).toBe(1)
  return res.body.data.items[0].ip
}

describe('without TRUST_PROXY', () => {
  let env: RelayEnv
  let keys: { far: string; local: string }
  beforeAll(async () => {
    env = await startHardeningEnv()
    keys = await setUp(env)
  })
  afterAll(() => env.stop())

  for (const p of PROBES) {
    test(`${p.name}: a key allowed only from 10.1.2.3 is not unlocked by forged forwarding headers`, async () => {
      const res = await probe(env, p, keys.far, FORGED)
      expect(res.status).toBe(403)
      if (p.method !== 'HEAD') expect(res.text).toContain('client IP 127.0.0.1 is not allowed')
    })
    test(`${p.name}: a key allowed from 127.0.0.1 works from 127.0.0.1 whatever the headers say`, async () => {
      const res = await probe(env, p, keys.local, { 'x-forwarded-for': '10.9.9.9' })
      expect(res.status).toBe(200)
    })
  }

  test('OPTIONS is no way around it: no route answers it, forged headers or not', async () => {
    for (const path of ['/v1/chat/completions', '/v1/models', '/v1beta/models', '/api/usage/token/']) {
      const res = await env.app.fetch(path, { method: 'OPTIONS', headers: { ...bearer(keys.far), ...FORGED } })
      expect(res.status).toBe(404)
    }
  })

  test('log rows, relay and management, carry the peer address, not the forged one', async () => {
    const root = await login(env.app)
    const relayed = await env.app.fetch('/v1/chat/completions', { method: 'POST', headers: { ...bearer(keys.local), ...FORGED, 'content-type': 'application/json' }, body: JSON.stringify(chat) })
    expect(relayed.status).toBe(200)
    expect(await loggedIp(env, relayed.headers.get('x-request-id'), root)).toBe('127.0.0.1')
    // a refusal after the key was checked is logged too
    const refused = await env.app.fetch('/v1beta/models/no-such-model:generateContent', { method: 'POST', headers: { ...goog(keys.local), ...FORGED, 'content-type': 'application/json' }, body: JSON.stringify(gemini) })
    expect(refused.status).toBe(404)
    expect(await loggedIp(env, refused.headers.get('x-request-id'), root)).toBe('127.0.0.1')
    // a top-up is a management log row with the caller's IP
    const code = (await call(env.app, 'POST', '/api/redemption/', { name: 'xff', quota: 1000 }, { cookie: root })).body.data.keys[0]
    const topup = await call(env.app, 'POST', '/api/user/topup', { key: code }, { cookie: root, ...FORGED })
    expect(topup.status).toBe(200)
    const rows = (await call(env.app, 'GET', '/api/log/?type=1', undefined, { cookie: root })).body.data.items
    expect(rows.map((r: any) => r.ip)).toEqual(['127.0.0.1'])
  })

  test('the login limiter counts the peer: new forged addresses do not buy new attempts', async () => {
    await env.app.deps.options.set('LoginFailuresPerAddress', 3)
    stopLoginClock(env.app.deps)
    for (let i = 0; i < 3; i++) {
      const res = await call(env.app, 'POST', '/api/user/login', { username: `nobody${i}`, password: 'wrong-password' }, { 'x-forwarded-for': `10.0.0.${i}` })
      expect(res.status).toBe(401)
    }
    const blocked = await call(env.app, 'POST', '/api/user/login', { username: 'root', password: ROOT_PASSWORD }, { 'x-forwarded-for': '10.0.0.200' })
    expect(blocked.status).toBe(429)
  })
})

describe('with TRUST_PROXY=true (one proxy: the peer)', () => {
  let env: RelayEnv
  let keys: { far: string; local: string }
  beforeAll(async () => {
    env = await startHardeningEnv({ TRUST_PROXY: 'true' })
    keys = await setUp(env)
  })
  afterAll(() => env.stop())

  for (const p of PROBES) {
    test(`${p.name}: the client is the entry the proxy appended; a spoofed left-most entry is ignored`, async () => {
      expect((await probe(env, p, keys.far, { 'x-forwarded-for': '10.9.9.9, 10.1.2.3' })).status).toBe(200)
      const spoofed = await probe(env, p, keys.far, { 'x-forwarded-for': '10.1.2.3, 127.0.0.1' })
      expect(spoofed.status).toBe(403)
      if (p.method !== 'HEAD') expect(spoofed.text).toContain('client IP 127.0.0.1 is not allowed')
      expect((await probe(env, p, keys.local, { 'x-forwarded-for': '127.0.0.1, 10.9.9.9' })).status).toBe(403)
      expect((await probe(env, p, keys.local, {})).status).toBe(200) // no header: the peer
    })
  }

  test('a malformed entry is not an address: the walk stops at the peer', async () => {
    const p = PROBES[0]!
    for (const forwardedFor of ['10.1.2.3:443', '10.1.2.3, unknown', 'garbage', '10.1.2.3,', '[::1]']) {
      const res = await probe(env, p, keys.far, { 'x-forwarded-for': forwardedFor })
      expect(res.status).toBe(403)
      expect(res.text).toContain('client IP 127.0.0.1 is not allowed')
    }
  })

  test('log rows carry the right-most address', async () => {
    const root = await login(env.app)
    const relayed = await env.app.fetch('/v1beta/models/gemini-2.5-flash:generateContent', {
      method: 'POST',
      headers: { ...goog(keys.far), 'x-forwarded-for': '192.168.0.1, 10.1.2.3', 'content-type': 'application/json' },
      body: JSON.stringify(gemini),
    })
    expect(relayed.status).toBe(200)
    expect(await loggedIp(env, relayed.headers.get('x-request-id'), root)).toBe('10.1.2.3')
  })

  test('the login limiter counts the right-most address: new spoofed left-most entries buy no attempts', async () => {
    await env.app.deps.options.set('LoginFailuresPerAddress', 3)
    stopLoginClock(env.app.deps)
    for (let i = 0; i < 3; i++) {
      const res = await call(env.app, 'POST', '/api/user/login', { username: `nobody${i}`, password: 'wrong-password' }, { 'x-forwarded-for': `10.0.1.${i}, 10.0.0.7` })
      expect(res.status).toBe(401)
    }
    expect((await call(env.app, 'POST', '/api/user/login', { username: 'nobody9', password: 'x-wrong-password' }, { 'x-forwarded-for': '10.0.1.99, 10.0.0.7' })).status).toBe(429)
    expect((await call(env.app, 'POST', '/api/user/login', { username: 'root', password: ROOT_PASSWORD }, { 'x-forwarded-for': '10.0.0.7, 10.0.0.8' })).status).toBe(200)
  })
})

describe('with TRUST_PROXY naming the proxies', () => {
  const p = PROBES[0]!

  test('a peer not on the list is the client: its forwarding headers are not read', async () => {
    const env = await startHardeningEnv({ TRUST_PROXY: '10.0.0.0/8, ::ffff:192.168.0.0/112' })
    try {
      const keys = await setUp(env)
      const res = await probe(env, p, keys.far, FORGED)
      expect(res.status).toBe(403)
      expect(res.text).toContain('client IP 127.0.0.1 is not allowed')
      expect((await probe(env, p, keys.local, { 'x-forwarded-for': '10.9.9.9' })).status).toBe(200)
    } finally {
      await env.stop()
    }
  })

  test('behind a listed peer, the right-most address not on the list is the client', async () => {
    const env = await startHardeningEnv({ TRUST_PROXY: '127.0.0.1, 10.0.0.0/8' })
    try {
      await setUp(env)
      const seven = await env.newKey({ allow_ips: '192.168.7.7' })
      // 10.0.0.5 (an inner proxy) and the peer are listed; what the client wrote left of 192.168.7.7 is never read
      expect((await probe(env, p, seven, { 'x-forwarded-for': '203.0.113.5, 192.168.7.7, 10.0.0.5' })).status).toBe(200)
      expect((await probe(env, p, seven, { 'x-forwarded-for': '192.168.7.7' })).status).toBe(200)
      const spoofed = await probe(env, p, seven, { 'x-forwarded-for': '192.168.7.7, 203.0.113.5, 10.0.0.5' })
      expect(spoofed.status).toBe(403)
      expect(spoofed.text).toContain('client IP 203.0.113.5 is not allowed')
    } finally {
      await env.stop()
    }
  })
})
