/**
 * A fake auth.openai.com (Codex's OAuth client: the code exchange with PKCE and the rotating refresh) and a fake
 * ChatGPT backend (`/backend-api/codex/responses` as an event stream, `/backend-api/wham/usage`), following what
 * Codex CLI and new-api send. Tokens are JWTs naming the ChatGPT account, as auth.openai.com's are.
 */
export const ACCOUNT_ID = 'acct-7f3c9e'
export const EMAIL = 'coder@example.com'
const CLIENT_ID = 'app_EMoamEEZ73f0CkXaXp7hrann'
const REDIRECT_URI = 'http://localhost:1455/auth/callback'

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')

/** An access token as auth.openai.com issues one (unsigned here: nobody but the fake checks it). */
export function accessToken(serial: number, expSeconds: number, account = ACCOUNT_ID): string {
  return `${b64({ alg: 'none' })}.${b64({ email: EMAIL, exp: expSeconds, 'https://api.openai.com/auth': { chatgpt_account_id: account, chatgpt_plan_type: 'pro' }, jti: `t${serial}` })}.sig`
}

export interface FakeCodex {
  authUrl: string
  backendUrl: string
  /** the access token the backend accepts now, and the refresh token the auth server accepts now */
  current: { access: string; refresh: string }
  /** codes the auth server will take, with the PKCE challenge each was issued for */
  codes: Map<string, string>
  tokenCalls: Record<string, string>[]
  responses: { headers: Headers; body: any }[]
  usageCalls: number
  /** the next token answer waits for this (to hold a refresh open) */
  hold?: Promise<void>
  /** expires_in of the tokens issued */
  expiresIn: number
  stop(): void
}

export function startFakeCodex(): FakeCodex {
  let serial = 0
  const fake: FakeCodex = {
    authUrl: '',
    backendUrl: '',
    current: { access: accessToken(0, Math.floor(Date.now() / 1000) + 3600), refresh: 'rt-0' },
    codes: new Map(),
    tokenCalls: [],
    responses: [],
    usageCalls: 0,
    expiresIn: 864_000,
    stop: () => {
      auth.stop(true)
      backend.stop(true)
    },
  }
  const issue = () => {
    serial += 1
    fake.current = { access: accessToken(serial, Math.floor(Date.now() / 1000) + fake.expiresIn), refresh: `rt-${serial}` }
    return Response.json({ access_token: fake.current.access, refresh_token: fake.current.refresh, id_token: `${b64({})}.${b64({ email: EMAIL })}.sig`, expires_in: fake.expiresIn, token_type: 'Bearer' })
  }
  const auth = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(request) {
      const url = new URL(request.url)
      if (url.pathname !== '/oauth/token' || request.method !== 'POST') return new Response('not found', { status: 404 })
      if (!request.headers.get('content-type')?.startsWith('application/x-www-form-urlencoded')) return Response.json({ error: 'invalid_request' }, { status: 400 })
      const form = Object.fromEntries(new URLSearchParams(await request.text()))
      fake.tokenCalls.push(form)
      if (fake.hold) await fake.hold
      if (form.client_id !== CLIENT_ID) return Response.json({ error: 'invalid_client' }, { status: 401 })
      if (form.grant_type === 'authorization_code') {
        const challenge = fake.codes.get(form.code ?? '')
        const proof = new Bun.CryptoHasher('sha256').update(form.code_verifier ?? '').digest('base64url')
        if (!challenge || challenge !== proof || form.redirect_uri !== REDIRECT_URI) return Response.json({ error: 'invalid_grant' }, { status: 400 })
        fake.codes.delete(form.code!)
        return issue()
      }
      if (form.grant_type === 'refresh_token') {
        if (form.refresh_token !== fake.current.refresh) return Response.json({ error: 'invalid_grant', error_description: 'refresh token already used' }, { status: 400 })
        return issue()
      }
      return Response.json({ error: 'unsupported_grant_type' }, { status: 400 })
    },
  })
  const backend = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(request) {
      const url = new URL(request.url)
      const authorized = request.headers.get('authorization') === `Bearer ${fake.current.access}` && request.headers.get('chatgpt-account-id') === ACCOUNT_ID
      if (url.pathname === '/backend-api/wham/usage') {
        fake.usageCalls += 1
        if (!authorized) return Response.json({ detail: 'Unauthorized' }, { status: 401 })
        return Response.json({ plan_type: 'pro', rate_limit: { allowed: true, limit_reached: false, primary_window: { used_percent: 12, limit_window_seconds: 18000, reset_after_seconds: 3600 }, secondary_window: { used_percent: 40, limit_window_seconds: 604800, reset_after_seconds: 86400 } } })
      }
      if (url.pathname !== '/backend-api/codex/responses' || request.method !== 'POST') return Response.json({ detail: 'Not Found' }, { status: 404 })
      if (!authorized) return Response.json({ detail: 'Could not parse your authentication token. Please try signing in again.' }, { status: 401 })
      if (request.headers.get('content-type') !== 'application/json') return Response.json({ detail: 'Unsupported content type' }, { status: 415 })
      const body = (await request.json()) as any
      fake.responses.push({ headers: request.headers, body })
      // what the ChatGPT backend refuses (new-api's adaptor documents each)
      if (body.stream !== true) return Response.json({ detail: 'Stream must be set to true' }, { status: 400 })
      if (body.store !== false) return Response.json({ detail: 'Store must be set to false' }, { status: 400 })
      if (typeof body.instructions !== 'string') return Response.json({ detail: 'Instructions are required' }, { status: 400 })
      if (!Array.isArray(body.input)) return Response.json({ detail: 'Input must be a list' }, { status: 400 })
      for (const field of ['max_output_tokens', 'temperature']) if (field in body) return Response.json({ detail: `Unsupported parameter: ${field}` }, { status: 400 })
      return new Response(responseStream(body.model), { headers: { 'content-type': 'text/event-stream' } })
    },
  })
  fake.authUrl = `http://127.0.0.1:${auth.port}`
  fake.backendUrl = `http://127.0.0.1:${backend.port}`
  return fake
}

/** A Responses stream as the backend sends one: created, the message item, two deltas, completed with usage. */
function responseStream(model: string): string {
  const id = 'resp_codex_1'
  const item = { id: 'msg_1', type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Hello from Codex', annotations: [] }] }
  const base = { id, object: 'response', created_at: 1_760_000_000, model, status: 'in_progress', output: [] as unknown[] }
  const events: [string, unknown][] = [
    ['response.created', { type: 'response.created', sequence_number: 0, response: base }],
    ['response.in_progress', { type: 'response.in_progress', sequence_number: 1, response: base }],
    ['response.output_item.added', { type: 'response.output_item.added', sequence_number: 2, output_index: 0, item: { ...item, status: 'in_progress', content: [] } }],
    ['response.content_part.added', { type: 'response.content_part.added', sequence_number: 3, item_id: 'msg_1', output_index: 0, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } }],
    ['response.output_text.delta', { type: 'response.output_text.delta', sequence_number: 4, item_id: 'msg_1', output_index: 0, content_index: 0, delta: 'Hello ' }],
    ['response.output_text.delta', { type: 'response.output_text.delta', sequence_number: 5, item_id: 'msg_1', output_index: 0, content_index: 0, delta: 'from Codex' }],
    ['response.output_text.done', { type: 'response.output_text.done', sequence_number: 6, item_id: 'msg_1', output_index: 0, content_index: 0, text: 'Hello from Codex' }],
    ['response.content_part.done', { type: 'response.content_part.done', sequence_number: 7, item_id: 'msg_1', output_index: 0, content_index: 0, part: item.content[0] }],
    ['response.output_item.done', { type: 'response.output_item.done', sequence_number: 8, output_index: 0, item }],
    [
      'response.completed',
      {
        type: 'response.completed',
        sequence_number: 9,
        response: { ...base, status: 'completed', output: [item], usage: { input_tokens: 21, input_tokens_details: { cached_tokens: 0 }, output_tokens: 4, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 25 } },
      },
    ],
  ]
  return events.map(([name, data]) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`).join('')
}
