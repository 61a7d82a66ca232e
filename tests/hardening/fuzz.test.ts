import { afterAll, beforeAll, expect, test } from 'bun:test'
import { createApp } from '../../src/app'
import { createToken } from '../../src/services/tokens/create-token'
import type { TokenFieldsInput } from '../../src/services/tokens/token-fields'
import { addUser, login, USER_PASSWORD } from '../helpers/accounts'
import { UPSTREAM_KEY, type RelayEnv } from '../helpers/relay-env'
import { startHardeningEnv } from './env'
import { corrupt, fromSchema, mutate, rawJson, Rng, weirdValue, WEIRD_STRINGS, type FuzzBody, type FuzzInput, type Identity, type RouteInfo } from './fuzz-inputs'
import { shapeOf, shapeProblem } from './shapes'

/**
 * Issue #13: an HTTP fuzz of every relay and /api route the app has (`createApp(deps).routes`, so a new route
 * is fuzzed without being listed), as anonymous, as a user and as root, over real loopback HTTP. Inputs come
 * from one seed (FUZZ_SEED overrides it, FUZZ_INPUTS the count): malformed JSON, wrong types at every field
 * (bodies are built from each route's own schema, relay bodies from a rich valid request, then broken), huge and
 * negative numbers and number tokens JavaScript cannot hold, deep nesting, NUL and invalid UTF-8, wrong content
 * types, chunked and oversized bodies, bad path and query parameters, wrong methods and made-up paths.
 * Every answer must be below 500, arrive (no reset, no hang), and, when an error, be in the route's shape; the
 * gateway must be healthy afterwards. A failure names the input's index and what was done to it.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 0x13f0cc)
const INPUTS = Number(process.env.FUZZ_INPUTS ?? 2500)
const CONCURRENCY = 6
const LIMIT_MB = 1
const LIMIT = LIMIT_MB * 1024 * 1024
const MODELS = ['gpt-4o', 'claude-sonnet-4-5', 'gemini-2.5-flash']

let env: RelayEnv
const sessions: Record<Identity, string> = { anonymous: '', user: '', root: '' }
const keys: Record<Identity, string> = { anonymous: '', user: '', root: '' }
let routes: RouteInfo[] = []

beforeAll(async () => {
  env = await startHardeningEnv({ MAX_BODY_MB: String(LIMIT_MB) })
  const { deps } = env.app
  // rows the fuzz may delete or disable (it picks small ids): the identities and channels it relies on come after them
  for (let i = 0; i < 12; i++) await addUser(env.app, { username: `spare${i}` })
  for (let i = 0; i < 12; i++) await env.newKey({ name: `spare${i}` })
  await deps.routing.channels.create(Array.from({ length: 12 }, (_, i) => ({ name: `spare${i}`, type: 1, baseUrl: env.upstream.url, keyText: UPSTREAM_KEY, models: 'spare-model', group: 'default', status: 2 })))
  await env.addChannel({ type: 1 })
  await env.addChannel({ type: 14 })
  await env.addChannel({ type: 24 })
  await env.addChannel({ type: 1, name: 'responses', setting: JSON.stringify({ upstream_protocol: 'openai-responses' }) } as never)
  const fuzzer = await addUser(env.app, { username: 'fuzzer', quota: 1_000_000_000 })
  const root = (await deps.repos.users.findByUsername('root'))!
  const key = async (user: typeof root) => (await createToken(deps, { user, fields: { name: 'fuzz', unlimited_quota: true } as TokenFieldsInput })).key
  keys.user = await key(fuzzer)
  keys.root = await key(root)
  for (const owner of [fuzzer, fuzzer, fuzzer, root, root, root]) await key(owner) // tokens 16–21, the fuzz's to edit and delete
  sessions.user = await login(env.app, 'fuzzer')
  sessions.root = await login(env.app)
  routes = createApp(deps)
    .routes.filter((r) => /^\/(api|v1|v1beta|pg|mj|suno|:mode)(\/|$)/.test(r.path) || (r.method === 'HEAD' && r.path === '/'))
    .map((r) => {
      const hooks = (r as { hooks?: Record<string, unknown> }).hooks ?? {}
      // a WebSocket route (realtime) is a GET that asks to upgrade: the fuzz sends it plain GETs
      return { method: r.method === 'WS' ? 'GET' : r.method, path: r.path, body: hooks.body as never, query: hooks.query as never, params: hooks.params as never }
    })
})
afterAll(() => env?.stop())

const RELAY_BODIES: Record<string, (rng: Rng) => unknown> = {
  '/v1/chat/completions': chatBody,
  '/pg/chat/completions': chatBody,
  '/v1/responses': (rng) => ({
    model: rng.pick(MODELS),
    instructions: 'be brief',
    input: [
      { role: 'user', content: [{ type: 'input_text', text: 'hi' }, { type: 'input_image', image_url: 'data:image/png;base64,iVBORw0KGgo=' }] },
      { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'thinking' }], encrypted_content: 'abc' },
      { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
      { type: 'function_call_output', call_id: 'call_1', output: 'sunny' },
      { role: 'assistant', content: [{ type: 'output_text', text: 'It is sunny.' }] },
    ],
    tools: [{ type: 'function', name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } }],
    tool_choice: 'auto',
    text: { format: { type: 'json_schema', name: 'w', schema: { type: 'object' } } },
    reasoning: { effort: 'low', summary: 'auto' },
    max_output_tokens: 64,
    stream: rng.chance(0.3),
  }),
  '/v1/messages': (rng) => messagesBody(rng, true),
  '/v1/messages/count_tokens': (rng) => messagesBody(rng, false),
  '/v1beta/models/:model': geminiBody,
  '/v1/models/:model': geminiBody,
}

/** Well-formed bodies for the /api routes that take one, so the mutations below reach the handlers, not only the schemas. */
const API_BODIES: Record<string, (rng: Rng) => unknown> = {
  'POST /api/setup': () => ({ username: 'root2', password: 'password-123', confirmPassword: 'password-123' }),
  'POST /api/user/login': (rng) => ({ username: rng.pick(['fuzzer', 'root', 'nobody']), password: USER_PASSWORD }),
  'POST /api/user/register': (rng) => ({ username: `reg${rng.int(1000)}`, password: 'password-123' }),
  'PUT /api/user/self': () => ({ display_name: 'Fuzz' }),
  'POST /api/user/aff_transfer': () => ({ quota: 500_000 }),
  'POST /api/user/': (rng) => ({ username: `fz${rng.int(100_000)}`, password: 'password-123', display_name: 'fz', quota: 100 }),
  'PUT /api/user/': (rng) => ({ id: 2 + rng.int(12), display_name: 'edited', quota: 10 }),
  'POST /api/user/manage': (rng) => ({ id: 3 + rng.int(12), action: rng.pick(['enable', 'disable', 'promote', 'demote', 'add_quota']), value: 10, mode: 'add' }),
  'PUT /api/option/': (rng) => rng.pick([{ key: 'ServerAddress', value: 'https://gw.example.com' }, { key: 'DisplayInCurrencyEnabled', value: true }, { key: 'RegisterEnabled', value: true }]),
  'POST /api/token/': (rng) => ({ name: `t${rng.int(100)}`, remain_quota: 1000, unlimited_quota: false, expired_time: -1, model_limits_enabled: false, model_limits: '', allow_ips: '', group: '' }),
  'PUT /api/token/': (rng) => ({ id: rng.pick([2, 5, 17, 18, 20, 21]), name: 'edited', status: 1 }),
  'POST /api/token/batch': (rng) => ({ ids: [rng.pick([2, 5, 17, 18, 20, 21])] }),
  'POST /api/channel/': (rng) => ({ type: rng.pick([1, 14, 24]), name: `fz${rng.int(100)}`, key: 'sk-upstream-secret-key-0123456789', base_url: env.upstream.url, models: 'fz-model', group: 'default', status: 2 }),
  'PUT /api/channel/': (rng) => ({ id: 1 + rng.int(12), name: 'edited', weight: 1, priority: 0 }),
  'POST /api/channel/batch': (rng) => ({ ids: [1 + rng.int(12)] }),
  'POST /api/channel/batch/tag': (rng) => ({ ids: [1 + rng.int(12)], tag: 'fz' }),
  'POST /api/channel/tag/enabled': () => ({ tag: 'fz' }),
  'POST /api/channel/tag/disabled': () => ({ tag: 'fz' }),
  'PUT /api/channel/tag': () => ({ tag: 'fz', priority: 1, weight: 2 }),
  'POST /api/redemption/': (rng) => ({ name: `r${rng.int(100)}`, count: 2, quota: 1000 }),
  'PUT /api/redemption/': (rng) => ({ id: 1 + rng.int(6), name: 'edited', quota: 2000 }),
  'POST /api/user/topup': () => ({ key: 'not-a-code' }),
}

function chatBody(rng: Rng) {
  return {
    model: rng.pick(MODELS),
    messages: [
      { role: 'system', content: 'be brief' },
      { role: 'user', content: [{ type: 'text', text: 'hi' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=', detail: 'low' } }] },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
      { role: 'tool', tool_call_id: 'call_1', content: 'sunny' },
    ],
    tools: [{ type: 'function', function: { name: 'get_weather', description: 'weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }],
    tool_choice: { type: 'function', function: { name: 'get_weather' } },
    response_format: { type: 'json_schema', json_schema: { name: 'w', schema: { type: 'object' } } },
    max_tokens: 64,
    temperature: 0.5,
    stop: ['\n\n'],
    stream: rng.chance(0.3),
    stream_options: { include_usage: true },
    reasoning_effort: 'low',
  }
}

function messagesBody(rng: Rng, generate: boolean) {
  return {
    model: rng.pick(MODELS),
    ...(generate ? { max_tokens: 64, stream: rng.chance(0.3), temperature: 0.5, stop_sequences: ['END'], metadata: { user_id: 'u1' } } : {}),
    system: [{ type: 'text', text: 'be brief', cache_control: { type: 'ephemeral' } }],
    messages: [
      { role: 'user', content: [{ type: 'text', text: 'hi' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } }] },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'let me see', signature: 'sig' },
          { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } },
        ],
      },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: 'sunny' }], is_error: false }] },
    ],
    tools: [{ name: 'get_weather', description: 'weather', input_schema: { type: 'object', properties: { city: { type: 'string' } } } }],
    tool_choice: { type: 'auto' },
    thinking: { type: 'enabled', budget_tokens: 1024 },
  }
}

function geminiBody(rng: Rng) {
  return {
    contents: [
      { role: 'user', parts: [{ text: 'hi' }, { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } }] },
      { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: { city: 'Paris' } }, thoughtSignature: 'sig' }] },
      { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { result: 'sunny' } } }] },
    ],
    systemInstruction: { parts: [{ text: 'be brief' }] },
    tools: [{ functionDeclarations: [{ name: 'get_weather', parameters: { type: 'OBJECT', properties: { city: { type: 'STRING' } } } }] }],
    toolConfig: { functionCallingConfig: { mode: 'AUTO' } },
    generationConfig: { temperature: 0.5, maxOutputTokens: 64, responseMimeType: 'application/json', thinkingConfig: { thinkingBudget: 128 }, stopSequences: ['END'] },
    ...(rng.chance(0.2) ? { model: rng.pick(MODELS) } : {}),
  }
}

const BAD_SEGMENTS = ['0', '-1', '99999999999999999999', '9007199254740993', '1e3', '0x1f', 'abc', '%00', '%ZZ', '%FF%FE', '%E2%82', '..', '%2e%2e', 'a%2Fb', '😀', 'x'.repeat(3000), ' 1', '1.0', 'null', 'undefined']
const MODEL_SEGMENTS = ['gemini-2.5-flash:generateContent', 'gemini-2.5-flash:streamGenerateContent', 'models%2Fgemini-2.5-flash:generateContent', 'gpt-4o:generateContent', 'claude-sonnet-4-5:streamGenerateContent', 'gemini-2.5-flash:countTokens', 'gemini-2.5-flash', ':generateContent', 'x:', '%3A%3A', 'gpt-4o']
const JUNK_QUERIES = ['%', 'a=%ZZ', 'p=1&p=2', 'p[]=1', '=', '&&&', '__proto__=1', 'constructor[prototype][x]=1', 'page_size=1e400', 'p=' + '9'.repeat(400), 'keyword=' + 'x'.repeat(300), 'key=', 'key=sk-x', 'alt=sse', 'alt=%00', 'status=enabled&status=3', 'type=%F0%9F%98%80', 'start_timestamp=1e20', 'model=%00']
const CONTENT_TYPES = ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data', 'multipart/form-data; boundary=xyz', 'application/octet-stream', 'application/xml', 'application/json; charset=latin1', 'APPLICATION/JSON', 'text/event-stream', 'foo', '']
const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS']

/** The auth headers (and query) an identity sends on a route, in one of the carriers the route accepts. */
function credentials(rng: Rng, route: string, identity: Identity): { headers: Record<string, string>; query: string } {
  const relay = /^\/(v1|v1beta)\//.test(route) || route === '/api/usage/token/'
  if (!relay) {
    if (identity === 'anonymous') return { headers: rng.chance(0.3) ? { cookie: rng.pick(['tollgate_session=garbage', 'tollgate_session=', 'a=b; tollgate_session=eyJhbGciOiJIUzI1NiJ9.e30.x']), authorization: 'Bearer nonsense' } : {}, query: '' }
    const headers: Record<string, string> = { cookie: sessions[identity] }
    if (rng.chance(0.1)) headers['new-api-user'] = rng.pick(['1', '2', '0', '-1', 'abc', '99999999999999999999'])
    return { headers, query: '' }
  }
  const key = identity === 'anonymous' ? rng.pick(['', 'sk-' + 'x'.repeat(48), 'sk-', 'garbage', 'x'.repeat(2000)]) : keys[identity]
  if (!key) return { headers: {}, query: '' }
  const gemini = route.startsWith('/v1beta') || route.includes('/v1/models')
  const carrier = rng.pick(gemini ? ['bearer', 'goog', 'query', 'x-api-key'] : route.startsWith('/v1/messages') ? ['bearer', 'x-api-key'] : ['bearer'])
  switch (carrier) {
    case 'goog':
      return { headers: { 'x-goog-api-key': key }, query: '' }
    case 'query':
      return { headers: {}, query: `key=${encode(key)}` }
    case 'x-api-key':
      return { headers: { 'x-api-key': key }, query: '' }
    default:
      return { headers: { authorization: rng.pick(['Bearer ', 'bearer ', 'Bearer  ']) + key }, query: '' }
  }
}

function fillPath(rng: Rng, path: string): string {
  return path.replace(/:(\w+)/g, (_, name: string) => {
    if (name === 'model') return rng.chance(0.8) ? rng.pick(MODEL_SEGMENTS) : rng.pick(BAD_SEGMENTS)
    // not 13–16: the channels, and 14–15 the keys and user, the fuzz itself runs with (see beforeAll)
    return rng.chance(0.6) ? String(rng.pick([1, 2, 3, 5, 8, 12, 17, 18, 20, 21, 30, Number.MAX_SAFE_INTEGER])) : rng.pick(BAD_SEGMENTS)
  })
}

/** Percent-encoded; a lone surrogate (which encodeURIComponent refuses) goes as the invalid UTF-8 it would be. */
function encode(text: string): string {
  try {
    return encodeURIComponent(text)
  } catch {
    return '%ED%A0%80'
  }
}

const BAD_NUMBERS = ['1e20', '-5', '99999999999999999999', '9007199254740993', '1000001', '0x10', '1.5', ' 1', '', '253402300800', '1e400']

/** A query for the route's schema, valid but for one or two parameters (bad numbers mostly), plus junk now and then. */
function queryOf(rng: Rng, route: RouteInfo): string {
  const parts: string[] = []
  if (route.query && rng.chance(0.8)) {
    const value = (fromSchema(rng, route.query, 0) ?? {}) as Record<string, unknown>
    const names = Object.keys((route.query as { properties?: object }).properties ?? {})
    for (let n = rng.int(3); n > 0 && names.length; n--) value[rng.pick(names)] = rng.chance(0.6) ? rng.pick(BAD_NUMBERS) : rng.pick(WEIRD_STRINGS)
    for (const [k, v] of Object.entries(value)) parts.push(`${encode(k)}=${encode(typeof v === 'string' ? v : (JSON.stringify(v) ?? ''))}`)
  }
  if (rng.chance(0.25)) parts.push(rng.pick(JUNK_QUERIES))
  if (route.path.includes('/v1beta/') || route.path === '/v1/models/:model') if (rng.chance(0.3)) parts.push('alt=sse')
  return parts.join('&')
}

function bodyFor(rng: Rng, route: RouteInfo): { body?: FuzzBody; contentType?: string; note: string } {
  const make = RELAY_BODIES[route.path] ?? API_BODIES[`${route.method} ${route.path}`]
  const base = make && rng.chance(0.8) ? make(rng) : route.body ? fromSchema(rng, route.body, rng.chance(0.5) ? 0 : 0.3) : rng.chance(0.5) ? {} : weirdValue(rng)
  const roll = rng.next()
  if (roll < 0.02) return { body: { kind: 'oversized', framing: rng.chance(0.5) ? 'length' : 'chunked', size: LIMIT + 1 + rng.int(3 * LIMIT) }, contentType: 'application/json', note: 'oversized' }
  if (roll < 0.04) return { body: { kind: 'text', text: '' }, contentType: rng.pick(['application/json', '']), note: 'empty body' }
  if (roll < 0.1) {
    const contentType = rng.pick(CONTENT_TYPES)
    const text = contentType.startsWith('multipart') ? `--xyz\r\nContent-Disposition: form-data; name="model"\r\n\r\n${rng.pick(MODELS)}\r\n--xyz--\r\n` : contentType.includes('urlencoded') ? rng.pick(['a=1&b[c]=2', 'model=gpt-4o&messages=[]', '%ZZ=1', 'username=root&password=x', '__proto__[x]=1']) : rawJson(base)
    return { body: { kind: 'text', text }, contentType, note: `content type ${JSON.stringify(contentType)}` }
  }
  if (roll < 0.3) {
    const { body, note } = corrupt(rng, rawJson(base))
    return { body, contentType: 'application/json', note }
  }
  let value = base
  const notes: string[] = []
  if (roll < 0.75) {
    for (let i = 1 + rng.int(3); i > 0; i--) {
      const changed = mutate(rng, value)
      value = changed.value
      notes.push(changed.note)
    }
  }
  return { body: { kind: 'text', text: rawJson(value) }, contentType: 'application/json', note: notes.join(', ') || 'as built' }
}

function generate(seed: number, count: number): FuzzInput[] {
  const rng = new Rng(seed)
  const inputs: FuzzInput[] = []
  for (let index = 0; index < count; index++) {
    const roll = rng.next()
    const route = roll < 0.9 ? rng.pick(routes) : undefined
    let method = route?.method ?? rng.pick(METHODS)
    let path = route ? fillPath(rng, route.path) : rng.pick(['/api/', '/api/nope', '/v1/', '/v1/nope', '/v1beta/nope', '/pg/nope', '/v1/chat', '/api/token/1/2', '//api//token', '/v1/messages/x', '/api/user/%ZZ', '/v1beta', '/v1/models/a/b:c', '/' + 'a'.repeat(5000)])
    let note = route ? '' : 'made-up path'
    if (route && roll > 0.82) {
      method = rng.pick(METHODS.filter((m) => m !== route.method))
      note = 'wrong method'
    }
    let identity: Identity = rng.pick(['anonymous', 'user', 'root'] as const)
    // keep the sessions the fuzz runs with (logout_all would end them and the access tokens too)
    if (route?.path === '/api/user/logout' || route?.path === '/api/user/logout_all') identity = 'anonymous'
    const auth = credentials(rng, route?.path ?? path, identity)
    const query = [route ? queryOf(rng, route) : rng.chance(0.3) ? rng.pick(JUNK_QUERIES) : '', auth.query].filter(Boolean).join('&')
    if (query) path += `?${query}`
    const headers: Record<string, string> = { ...auth.headers }
    if ((route?.path ?? path).startsWith('/v1/messages') || rng.chance(0.05)) {
      headers['anthropic-version'] = rng.chance(0.9) ? '2023-06-01' : rng.pick(['', 'yesterday', '2023-6-1', '9999-99-99'])
    }
    if (rng.chance(0.05)) headers['x-forwarded-for'] = rng.pick(['10.0.0.1', 'garbage', '::1, 1.2.3.4', ''])
    if (rng.chance(0.05)) headers.accept = rng.pick(['text/event-stream', '*/*', 'application/xml'])
    let body: FuzzBody | undefined
    if (method !== 'GET' && method !== 'HEAD' && (route || rng.chance(0.5))) {
      const made = bodyFor(rng, route ?? { method, path })
      body = made.body
      if (made.contentType) headers['content-type'] = made.contentType
      note = [note, made.note].filter(Boolean).join('; ')
    }
    inputs.push({ index, method, path, route: route?.path ?? '', identity, headers, body, note })
  }
  return inputs
}

function requestBody(body: FuzzBody | undefined, text: string): BodyInit | undefined {
  if (!body) return undefined
  const stream = (bytes: Uint8Array) =>
    new ReadableStream<Uint8Array>({
      start(controller) {
        for (let at = 0; at < bytes.length; at += 256 * 1024) controller.enqueue(bytes.subarray(at, at + 256 * 1024))
        controller.close()
      },
    })
  switch (body.kind) {
    case 'text':
      return body.text
    case 'bytes':
      return body.bytes
    case 'chunked':
      return stream(body.bytes)
    case 'oversized': {
      const padded = new TextEncoder().encode(text + ' '.repeat(Math.max(0, body.size - text.length)))
      return body.framing === 'chunked' ? stream(padded) : padded
    }
  }
}

/**
 * The one 5xx that is not the gateway's fault: 502/504 reporting what an upstream answered (a channel the fuzz
 * created or edited may point anywhere, with any key; fetch_models says so with a 502). A 500 never is.
 */
function upstreamFailure(status: number, text: string): boolean {
  return (status === 502 || status === 504) && /upstream/i.test(text) && !/internal error/i.test(text)
}

interface Outcome {
  input: FuzzInput
  status: number
  problem?: string
}

async function send(input: FuzzInput): Promise<Outcome> {
  try {
    const res = await env.app.fetch(input.path, {
      method: input.method,
      headers: input.headers,
      body: requestBody(input.body, '{"model":"gpt-4o","messages":[]}'),
      signal: AbortSignal.timeout(15_000),
      redirect: 'manual',
    })
    const text = await res.text()
    const oversized = input.body?.kind === 'oversized'
    // a chunked body's size shows only as it is read, and a relay route reads no byte of a refused key's body
    const refusedFirst = input.body?.kind === 'oversized' && input.body.framing === 'chunked' && /^\/(v1|v1beta|mj|suno|:mode)\//.test(input.route ?? '') && (res.status === 401 || res.status === 403)
    // a dot segment as a path parameter (`%2e%2e`) names another path once the URL is normalized: no route reads its body
    const leavesRoute = /(^|\/)(\.|%2e){1,2}(\/|\?|$)/i.test(input.path) && res.status === 404
    if (oversized && input.route && !input.note.startsWith('wrong method') && res.status !== 413 && !refusedFirst && !leavesRoute) {
      return { input, status: res.status, problem: `an oversized body answered ${res.status}, not 413: ${text.slice(0, 200)}` }
    }
    if (res.status >= 500 && !upstreamFailure(res.status, text)) return { input, status: res.status, problem: `${res.status}: ${text.slice(0, 300)}` }
    if (res.status >= 400 && input.method !== 'HEAD') {
      let parsed: unknown
      try {
        parsed = JSON.parse(text)
      } catch {
        return { input, status: res.status, problem: `${res.status} not JSON (${res.headers.get('content-type')}): ${JSON.stringify(text.slice(0, 200))}` }
      }
      const sent = new URL(env.app.url + input.path) // as fetch sent it: dot segments resolved (`/v1/models/..` is `/v1/`)
      const shape = shapeOf(sent.pathname + sent.search, input.headers)
      const problem = shapeProblem(shape, parsed)
      if (problem) return { input, status: res.status, problem: `${res.status} ${shape}: ${problem}: ${text.slice(0, 200)}` }
    }
    return { input, status: res.status }
  } catch (error) {
    return { input, status: 0, problem: `no answer: ${(error as Error).name}: ${(error as Error).message}` }
  }
}

function describeInput(input: FuzzInput): string {
  const body = input.body
  const shown = !body ? '' : body.kind === 'text' ? JSON.stringify(body.text.slice(0, 200)) : body.kind === 'oversized' ? `${body.framing} ${body.size} bytes` : `${body.kind} ${body.bytes.length} bytes`
  const headers = Object.fromEntries(Object.entries(input.headers).map(([k, v]) => [k, v.length > 60 ? v.slice(0, 60) + '…' : v]))
  return `#${input.index} ${input.identity} ${input.method} ${input.path.slice(0, 200)} [${input.note}] ${JSON.stringify(headers)} ${shown}`
}

test(`fuzz: ${INPUTS} requests from seed ${SEED} over every relay and /api route, as anonymous, user and root`, async () => {
  expect(routes.length).toBeGreaterThan(60)
  const inputs = generate(SEED, INPUTS)
  const started = performance.now()
  const outcomes: Outcome[] = []
  let next = 0
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < inputs.length) outcomes.push(await send(inputs[next++]!))
    }),
  )
  const seconds = (performance.now() - started) / 1000

  const byClass: Record<string, number> = {}
  for (const o of outcomes) {
    const key = o.status ? `${Math.floor(o.status / 100)}xx` : 'none'
    byClass[key] = (byClass[key] ?? 0) + 1
  }
  const name = (r: { method: string; path: string }) => `${r.method} ${r.path}`
  const own = outcomes.filter((o) => o.input.route && !o.input.note.startsWith('wrong method'))
  const sent = new Set(own.map((o) => `${o.input.method} ${o.input.route}`))
  const succeeded = new Set(own.filter((o) => o.status >= 200 && o.status < 300).map((o) => `${o.input.method} ${o.input.route}`))
  console.log(
    `fuzz: ${outcomes.length} inputs in ${seconds.toFixed(1)} s (seed ${SEED}); statuses ${JSON.stringify(byClass)}; ` +
      `${sent.size} of ${routes.length} routes sent to, ${succeeded.size} answered 2xx at least once` +
      ` (never: ${routes.map(name).filter((r) => !succeeded.has(r)).join(', ')})`,
  )
  expect(sent.size).toBe(routes.length)
  const failures = outcomes.filter((o) => o.problem)
  for (const f of failures.slice(0, 30)) console.log(`FAIL ${f.problem}\n  ${describeInput(f.input)}`)
  expect(failures.map((f) => `#${f.input.index} ${f.problem}`)).toEqual([])

  // healthy afterwards: status, and a normal relay call on a channel and key the fuzz never saw
  const status = await env.app.fetch('/api/status')
  expect(status.status).toBe(200)
  await env.app.deps.routing.channels.create([{ name: 'after-fuzz', type: 1, baseUrl: env.upstream.url, keyText: UPSTREAM_KEY, models: 'health-check', group: 'default' }])
  const user = await addUser(env.app, { username: 'after-fuzz' })
  const key = (await createToken(env.app.deps, { user, fields: { name: 'after', unlimited_quota: true } as TokenFieldsInput })).key
  const relayed = await env.app.fetch('/v1/chat/completions', {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'health-check', messages: [{ role: 'user', content: 'hi' }] }),
  })
  expect(relayed.status).toBe(200)
  expect((await relayed.json()).choices[0].message.content).toBeTruthy()
}, 120_000)
