import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createToken } from '../../src/services/tokens/create-token'
import type { TokenFieldsInput } from '../../src/services/tokens/token-fields'
import { addUser } from '../helpers/accounts'
import { startRelayEnv, type RelayEnv } from '../helpers/relay-env'

/**
 * Every refusal of a relay request, in the client's own shape (Anthropic on /v1/messages, OpenAI on
 * /v1/chat/completions), with a request id in the body and the x-request-id header, and never a 500.
 */
let env: RelayEnv
const keys: Record<string, string> = {}

beforeAll(async () => {
  env = await startRelayEnv()
  await env.addChannel({ type: 1, models: 'gpt-4o' })
  await env.addChannel({ type: 14, models: 'claude-sonnet-4-5' })
  const make = (fields: Partial<TokenFieldsInput> = {}, user = env.user) =>
    createToken(env.app.deps, { user, fields: { name: 't', unlimited_quota: true, ...fields } as TokenFieldsInput })
  const disabled = await make()
  await env.app.deps.repos.tokens.update(disabled.token.id, env.user.id, { status: 2 })
  keys.disabled = disabled.key
  const expired = await make()
  await env.app.deps.repos.tokens.update(expired.token.id, env.user.id, { expiredTime: Math.floor(Date.now() / 1000) - 60 })
  keys.expired = expired.key
  keys.exhausted = (await make({ unlimited_quota: false, remain_quota: 0 })).key
  const bob = await addUser(env.app, { username: 'bob' })
  keys.userDisabled = (await make({}, bob)).key
  await env.app.deps.repos.users.update(bob.id, { status: 2 })
  keys.ip = (await make({ allow_ips: '10.1.2.3' })).key
  keys.limited = (await make({ model_limits_enabled: true, model_limits: 'something-else' })).key
})
afterAll(() => env.stop())

type Shape = 'anthropic' | 'openai'
const routes: { shape: Shape; path: string; body: (model?: string) => unknown; headers: (key?: string) => Record<string, string> }[] = [
  {
    shape: 'anthropic',
    path: '/v1/messages',
    body: (model = 'claude-sonnet-4-5') => ({ model, max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] }),
    headers: (key) => ({ 'anthropic-version': '2023-06-01', 'content-type': 'application/json', ...(key ? { 'x-api-key': key } : {}) }),
  },
  {
    shape: 'openai',
    path: '/v1/chat/completions',
    body: (model = 'gpt-4o') => ({ model, messages: [{ role: 'user', content: 'hi' }] }),
    headers: (key) => ({ 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) }),
  },
]

async function send(path: string, headers: Record<string, string>, body: unknown) {
  const res = await env.app.fetch(path, { method: 'POST', headers, body: typeof body === 'string' ? body : JSON.stringify(body) })
  const text = await res.text()
  let json: any
  try {
    json = JSON.parse(text)
  } catch {
    throw new Error(`not JSON (${res.status}): ${text}`)
  }
  return { status: res.status, body: json, requestId: res.headers.get('x-request-id') }
}

/** The error in the client's shape, with the request id in body and header; returns its message. */
function expectShape(shape: Shape, r: { status: number; body: any; requestId: string | null }, type: string): string {
  expect(r.requestId).toBeTruthy()
  expect(r.body.request_id).toBe(r.requestId)
  if (shape === 'anthropic') {
    expect(Object.keys(r.body).sort()).toEqual(['error', 'request_id', 'type'])
    expect(r.body.type).toBe('error')
    expect(r.body.error.type).toBe(type)
    expect(typeof r.body.error.message).toBe('string')
    return r.body.error.message
  }
  expect(Object.keys(r.body).sort()).toEqual(['error', 'request_id'])
  expect(Object.keys(r.body.error).sort()).toEqual(['code', 'message', 'param', 'type'])
  expect(typeof r.body.error.message).toBe('string')
  return r.body.error.message
}

const OPENAI_TYPE: Record<number, string> = { 400: 'invalid_request_error', 401: 'authentication_error', 403: 'permission_error', 404: 'not_found_error' }
const ANTHROPIC_TYPE: Record<number, string> = { 400: 'invalid_request_error', 401: 'authentication_error', 403: 'permission_error', 404: 'not_found_error' }

for (const route of routes) {
  describe(`${route.path} (${route.shape} shape)`, () => {
    const authCases: [string, () => string | undefined, number, RegExp][] = [
      ['missing key', () => undefined, 401, /no API key/],
      ['unknown key', () => 'sk-' + 'x'.repeat(48), 401, /invalid API key/],
      ['disabled token', () => keys.disabled, 401, /disabled/],
      ['expired token', () => keys.expired, 401, /expired/],
      ['exhausted token', () => keys.exhausted, 401, /quota/],
      ['disabled user', () => keys.userDisabled, 401, /user .*disabled/],
      ['IP not allowed', () => keys.ip, 403, /IP 127\.0\.0\.1 is not allowed/],
    ]
    for (const [name, key, status, pattern] of authCases) {
      test(`${name} → ${status}, unauthorized, names the case`, async () => {
        const r = await send(route.path, route.headers(key()), route.body())
        expect(r.status).toBe(status)
        const message = expectShape(route.shape, r, (route.shape === 'anthropic' ? ANTHROPIC_TYPE : OPENAI_TYPE)[status]!)
        expect(message).toContain('unauthorized')
        expect(message).toMatch(pattern)
        if (route.shape === 'openai') expect(r.body.error.type).toBe(OPENAI_TYPE[status]!)
      })
    }

    test('auth comes before validation: a bad body without a key is still 401', async () => {
      const r = await send(route.path, route.headers(), '{not json')
      expect(r.status).toBe(401)
    })

    test('a model the token may not use → 404 model not found, naming it', async () => {
      const r = await send(route.path, route.headers(keys.limited), route.body())
      expect(r.status).toBe(404)
      const message = expectShape(route.shape, r, 'not_found_error')
      expect(message).toContain('model not found')
      expect(message).toContain(route.shape === 'anthropic' ? 'claude-sonnet-4-5' : 'gpt-4o')
    })

    test('a model no channel serves → 404 model not found, naming it', async () => {
      const r = await send(route.path, route.headers(env.key), route.body('nobody-serves-me'))
      expect(r.status).toBe(404)
      const message = expectShape(route.shape, r, 'not_found_error')
      expect(message).toContain('model not found')
      expect(message).toContain('nobody-serves-me')
      if (route.shape === 'openai') expect(r.body.error.code).toBe('model_not_found')
    })

    const bodyCases: [string, string, RegExp][] = [
      ['malformed JSON', '{"model": "x", ', /not valid JSON/],
      ['empty body', '', /empty/],
      ['a blank body', ' \n\t ', /body is empty/],
      ['a JSON array', '[{"model":"x"}]', /JSON object/],
      ['a JSON string', '"hello"', /JSON object/],
    ]
    for (const [name, raw, pattern] of bodyCases) {
      test(`${name} → 400`, async () => {
        const r = await send(route.path, route.headers(env.key), raw)
        expect(r.status).toBe(400)
        expect(expectShape(route.shape, r, 'invalid_request_error')).toMatch(pattern)
      })
    }
  })
}

describe('/v1/messages validation names the field', () => {
  const base = { model: 'claude-sonnet-4-5', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] }
  const headers = (extra: Record<string, string | undefined> = {}) => {
    const out: Record<string, string> = { 'x-api-key': env.key, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' }
    for (const [k, v] of Object.entries(extra)) v === undefined ? delete out[k] : (out[k] = v)
    return out
  }
  const cases: [string, unknown, Record<string, string | undefined>, string][] = [
    ['without max_tokens', { ...base, max_tokens: undefined }, {}, 'max_tokens'],
    ['max_tokens 0', { ...base, max_tokens: 0 }, {}, 'max_tokens'],
    ['max_tokens 1.5', { ...base, max_tokens: 1.5 }, {}, 'max_tokens'],
    ['temperature 1.5', { ...base, temperature: 1.5 }, {}, 'temperature'],
    ['without messages', { ...base, messages: undefined }, {}, 'messages'],
    ['without model', { ...base, model: undefined }, {}, 'model'],
    ['without the anthropic-version header', base, { 'anthropic-version': undefined }, 'anthropic-version'],
    ['anthropic-version "yesterday"', base, { 'anthropic-version': 'yesterday' }, 'anthropic-version'],
  ]
  for (const [name, body, extra, field] of cases) {
    test(`${name} → 400 naming ${field}`, async () => {
      const r = await send('/v1/messages', headers(extra), body)
      expect(r.status).toBe(400)
      const message = expectShape('anthropic', r, 'invalid_request_error')
      expect(message).toContain(field)
    })
  }

  test('count_tokens validates the same header and body', async () => {
    const r = await send('/v1/messages/count_tokens', headers({ 'anthropic-version': 'yesterday' }), { model: 'x', messages: [] })
    expect(r.status).toBe(400)
    expect(expectShape('anthropic', r, 'invalid_request_error')).toContain('anthropic-version')
    const r2 = await send('/v1/messages/count_tokens', headers(), { model: 'x' })
    expect(r2.status).toBe(400)
    expect(expectShape('anthropic', r2, 'invalid_request_error')).toContain('messages')
  })
})

describe('/v1/chat/completions validation names the field', () => {
  const cases: [string, unknown, string][] = [
    ['without messages', { model: 'gpt-4o' }, 'messages'],
    ['messages not an array', { model: 'gpt-4o', messages: 'hi' }, 'messages'],
    ['without model', { messages: [{ role: 'user', content: 'hi' }] }, 'model'],
  ]
  for (const [name, body, field] of cases) {
    test(`${name} → 400 naming ${field}`, async () => {
      const r = await send('/v1/chat/completions', { authorization: `Bearer ${env.key}`, 'content-type': 'application/json' }, body)
      expect(r.status).toBe(400)
      const message = expectShape('openai', r, 'invalid_request_error')
      expect(message).toContain(field)
      expect(r.body.error.type).toBe('invalid_request_error')
    })
  }
})

test('a field of the wrong type is named as sent: messages "hi" is not reported as messages.0.role', async () => {
  const r = await send('/v1/chat/completions', { authorization: `Bearer ${env.key}`, 'content-type': 'application/json' }, { model: 'gpt-4o', messages: 'hi' })
  expect(r.status).toBe(400)
  expect(expectShape('openai', r, 'invalid_request_error')).toBe('field "messages" must be an array, got "hi"')
  expect(r.body.error.param).toBe('messages')
})

test('an unknown /v1 route answers 404 in the OpenAI shape, not a 500', async () => {
  const r = await send('/v1/nothing-here', { authorization: `Bearer ${env.key}` }, '{}')
  expect(r.status).toBe(404)
  expectShape('openai', r, 'not_found_error')
})

test('no upstream was called by any of these', () => {
  expect(env.upstream.requests).toHaveLength(0)
})
