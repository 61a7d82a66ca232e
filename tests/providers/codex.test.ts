/**
 * Codex with a ChatGPT sign-in (type 57). The sign-in as new-api's routes run it (start → the admin signs in at
 * auth.openai.com → complete with the address the browser landed on), against a fake auth.openai.com that checks
 * the PKCE proof and rotates refresh tokens, and a fake ChatGPT backend that refuses what the real one refuses;
 * PROVIDER_ENDPOINTS sends both hosts to the fakes. Then the relay: OpenAI chat, Anthropic Messages and Responses
 * clients, streamed and not, billed from the backend's usage; the refresh (on demand, scheduled, under a lease);
 * the subscription's usage windows.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import OpenAI from 'openai'
import Anthropic from '@anthropic-ai/sdk'
import { account, logsWhen, startMeteredEnv } from '../metering/env'
import type { RelayEnv } from '../helpers/relay-env'
import { as, login } from '../helpers/accounts'
import { call } from '../helpers/test-app'
import { ACCOUNT_ID, accessToken, EMAIL, startFakeCodex, type FakeCodex } from '../helpers/fake-codex'
import { refreshCodexChannel, refreshDueCodexChannels, REFRESH_AHEAD_MS, type CodexPorts } from '../../src/codex/credentials'

let fake: FakeCodex
let env: RelayEnv
let root: string
let channelId: number
let key: string
let userId: number
let ports: CodexPorts

const cookieOf = (headers: Headers, name: string) => headers.getSetCookie().find((c) => c.startsWith(`${name}=`))?.split(';')[0] ?? ''

/** start → sign in (the fake issues a code for the PKCE challenge the gateway sent) → the address pasted back. */
async function signIn(path: string, code: string): Promise<{ status: number; body: any; signIn: string; authorize: URL }> {
  const started = await call(env.app, 'POST', `${path}/start`, undefined, as(root))
  expect(started.status).toBe(200)
  const authorize = new URL(started.body.data.authorize_url)
  const signInCookie = cookieOf(started.headers, 'tollgate_codex_oauth')
  fake.codes.set(code, authorize.searchParams.get('code_challenge')!)
  const landed = `http://localhost:1455/auth/callback?code=${code}&scope=openid&state=${authorize.searchParams.get('state')}`
  const done = await call(env.app, 'POST', `${path}/complete`, { input: landed }, { cookie: `${root}; ${signInCookie}` })
  return { ...done, signIn: signInCookie, authorize }
}

beforeAll(async () => {
  fake = startFakeCodex()
  env = await startMeteredEnv({ PROVIDER_ENDPOINTS: JSON.stringify({ 'auth.openai.com': fake.authUrl, 'chatgpt.com': fake.backendUrl }) })
  await env.app.deps.options.set('ChannelPrivateNetworksAllowed', true)
  await env.app.deps.options.set('ModelRatio', { 'gpt-5.4': 1 })
  await env.app.deps.options.set('CompletionRatio', { 'gpt-5.4': 4 })
  // a placeholder key until the sign-in replaces it
  channelId = await env.addChannel({ type: 57, name: 'codex', baseUrl: '', keyText: JSON.stringify({ access_token: 'placeholder', account_id: 'none' }), models: 'gpt-5.4', group: 'default' })
  root = await login(env.app)
  const payer = await account(env, 10_000_000)
  key = payer.key
  userId = payer.user.id
  const deps = env.app.deps
  ports = { fetch: deps.outbound.fetch, channels: deps.routing.channels, coord: deps.coord, now: deps.clock.now }
})
afterAll(async () => {
  await env.stop()
  fake.stop()
})

describe('Sign in with ChatGPT', () => {
  test('start gives auth.openai.com\'s address (moved by PROVIDER_ENDPOINTS) with Codex\'s client, PKCE S256 and a state; complete stores the tokens on the channel, sealed', async () => {
    const done = await signIn(`/api/channel/${channelId}/codex/oauth`, 'code-1')
    expect(done.authorize.origin).toBe(fake.authUrl)
    expect(done.authorize.pathname).toBe('/oauth/authorize')
    expect(Object.fromEntries(done.authorize.searchParams)).toMatchObject({
      response_type: 'code', client_id: 'app_EMoamEEZ73f0CkXaXp7hrann', redirect_uri: 'http://localhost:1455/auth/callback', scope: 'openid profile email offline_access', code_challenge_method: 'S256', originator: 'codex_cli_rs',
    })
    expect(done.signIn).toContain('tollgate_codex_oauth=')
    expect(done.status).toBe(200)
    expect(done.body).toMatchObject({ success: true, message: 'saved', data: { channel_id: channelId, account_id: ACCOUNT_ID, email: EMAIL } })
    expect(JSON.stringify(done.body)).not.toContain(fake.current.access)
    expect(fake.tokenCalls.at(-1)).toMatchObject({ grant_type: 'authorization_code', code: 'code-1', redirect_uri: 'http://localhost:1455/auth/callback' })
    // the tokens are the channel's key: sealed in the database, masked in the console
    const row = await env.app.deps.repos.channels.findById(channelId)
    expect(row!.key.startsWith('v1:')).toBe(true)
    expect(row!.key).not.toContain(fake.current.refresh)
    const shown = await call(env.app, 'GET', `/api/channel/${channelId}`, undefined, as(root))
    expect(JSON.stringify(shown.body)).not.toContain(fake.current.access)
    expect(JSON.parse(env.app.deps.routing.channels.get(channelId)!.keys[0]!)).toMatchObject({ access_token: fake.current.access, refresh_token: fake.current.refresh, account_id: ACCOUNT_ID, type: 'codex' })
  })

  test('a pasted address with another state, or a flow never started here, is refused with its code and spends no code', async () => {
    const started = await call(env.app, 'POST', `/api/channel/${channelId}/codex/oauth/start`, undefined, as(root))
    const signInCookie = cookieOf(started.headers, 'tollgate_codex_oauth')
    const before = fake.tokenCalls.length
    const wrong = await call(env.app, 'POST', `/api/channel/${channelId}/codex/oauth/complete`, { input: 'http://localhost:1455/auth/callback?code=c&state=forged' }, { cookie: `${root}; ${signInCookie}` })
    expect(wrong.status).toBe(400)
    expect(wrong.body).toMatchObject({ success: false, data: { code: 'codex_oauth_state_mismatch' } })
    const unstarted = await call(env.app, 'POST', `/api/channel/${channelId}/codex/oauth/complete`, { input: 'c#s' }, as(root))
    expect(unstarted.body.data.code).toBe('codex_oauth_not_started')
    const bare = await call(env.app, 'POST', `/api/channel/${channelId}/codex/oauth/complete`, { input: 'just-a-code' }, as(root))
    expect(bare.status).toBe(400)
    expect(fake.tokenCalls.length).toBe(before)
    // another channel's flow does not complete this one
    const other = await call(env.app, 'POST', '/api/channel/codex/oauth/complete', { input: `c#${new URL(started.body.data.authorize_url).searchParams.get('state')}` }, { cookie: `${root}; ${signInCookie}` })
    expect(other.body.data.code).toBe('codex_oauth_not_started')
  })

  test('a channel not yet created: the key comes back sealed, and creating the channel with it stores the tokens', async () => {
    const done = await signIn('/api/channel/codex/oauth', 'code-2')
    expect(done.body).toMatchObject({ success: true, message: 'generated', data: { account_id: ACCOUNT_ID } })
    const sealed = done.body.data.key as string
    expect(sealed.startsWith('codex-sign-in:')).toBe(true)
    expect(sealed).not.toContain(fake.current.access)
    const created = await call(env.app, 'POST', '/api/channel/', { type: 57, name: 'codex-2', key: sealed, models: 'gpt-5.4', status: 2 }, as(root))
    expect(created.status).toBe(200)
    const stored = env.app.deps.routing.channels.get(created.body.data.id)!.keys[0]!
    expect(JSON.parse(stored)).toMatchObject({ access_token: fake.current.access, account_id: ACCOUNT_ID })
    // one sign-in at a time at the fake: this channel's tokens are spent by the next one's
    await call(env.app, 'DELETE', `/api/channel/${created.body.data.id}`, undefined, as(root))
  })

  test('a key that is not a sign-in is refused on save, naming key', async () => {
    const res = await call(env.app, 'POST', '/api/channel/', { type: 57, name: 'bad', key: 'sk-not-a-sign-in', models: 'gpt-5.4' }, as(root))
    expect(res.status).toBe(400)
    expect(res.body.data).toMatchObject({ param: 'key' })
  })
})

describe('Codex as an upstream', () => {
  beforeAll(async () => {
    // this channel's key holds the tokens the fake accepts now
    const current = { access_token: fake.current.access, refresh_token: fake.current.refresh, account_id: ACCOUNT_ID, email: EMAIL, type: 'codex', expired: new Date(Date.now() + 864_000_000).toISOString() }
    await env.app.deps.routing.channels.update(channelId, {}, JSON.stringify(current))
  })

  test('a non-stream OpenAI chat client: converted to Responses, sent streamed with Codex\'s headers, folded back into one answer, billed', async () => {
    const openai = new OpenAI({ apiKey: key, baseURL: `${env.app.url}/v1`, maxRetries: 0 })
    const res = await openai.chat.completions.create({ model: 'gpt-5.4', max_tokens: 50, temperature: 0.3, messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Hi' }] })
    expect(res.choices[0]!.message.content).toBe('Hello from Codex')
    expect(res.usage).toMatchObject({ prompt_tokens: 21, completion_tokens: 4 })
    const sent = fake.responses.at(-1)!
    expect(sent.headers.get('authorization')).toBe(`Bearer ${fake.current.access}`)
    expect(sent.headers.get('chatgpt-account-id')).toBe(ACCOUNT_ID)
    expect(sent.headers.get('openai-beta')).toBe('responses=experimental')
    expect(sent.headers.get('originator')).toBe('codex_cli_rs')
    expect(sent.headers.get('accept')).toBe('text/event-stream')
    expect(sent.body).toMatchObject({ model: 'gpt-5.4', stream: true, store: false, instructions: 'Be brief.' })
    expect(sent.body).not.toHaveProperty('max_output_tokens')
    expect(sent.body).not.toHaveProperty('temperature')
    const [row] = await logsWhen(env, userId, 1)
    expect(row).toMatchObject({ modelName: 'gpt-5.4', promptTokens: 21, completionTokens: 4, channelId })
    expect(row!.quota).toBeGreaterThan(0)
  })

  test('a streaming OpenAI chat client gets the deltas and the usage', async () => {
    const openai = new OpenAI({ apiKey: key, baseURL: `${env.app.url}/v1`, maxRetries: 0 })
    const stream = await openai.chat.completions.create({ model: 'gpt-5.4', stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: 'Hi' }] })
    let text = ''
    let usage: OpenAI.CompletionUsage | undefined
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? ''
      usage = chunk.usage ?? usage
    }
    expect(text).toBe('Hello from Codex')
    expect(usage).toMatchObject({ prompt_tokens: 21, completion_tokens: 4 })
    expect(fake.responses.at(-1)!.body.instructions).toBe('')
    const rows = await logsWhen(env, userId, 2)
    expect(rows.at(-1)).toMatchObject({ promptTokens: 21, completionTokens: 4 })
  })

  test('Anthropic Messages clients, streamed and not, are converted and billed', async () => {
    const anthropic = new Anthropic({ apiKey: key, baseURL: env.app.url, maxRetries: 0 })
    const once = await anthropic.messages.create({ model: 'gpt-5.4', max_tokens: 64, system: 'Answer in English.', messages: [{ role: 'user', content: 'Hi' }] })
    expect(once.content).toMatchObject([{ type: 'text', text: 'Hello from Codex' }])
    expect(once.usage).toMatchObject({ input_tokens: 21, output_tokens: 4 })
    expect(fake.responses.at(-1)!.body.instructions).toBe('Answer in English.')
    const final = await anthropic.messages.stream({ model: 'gpt-5.4', max_tokens: 64, messages: [{ role: 'user', content: 'Hi' }] }).finalMessage()
    expect(final.content).toMatchObject([{ type: 'text', text: 'Hello from Codex' }])
    expect(final.usage).toMatchObject({ input_tokens: 21, output_tokens: 4 })
    const rows = await logsWhen(env, userId, 4)
    expect(rows.slice(-2).map((r) => [r.promptTokens, r.completionTokens])).toEqual([[21, 4], [21, 4]])
  })

  test('a Responses client (Codex CLI) passes through: a bare string input becomes an item list, its session id goes along, a non-stream answer is folded', async () => {
    const streamed = await env.app.fetch('/v1/responses', {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', session_id: 'sess-42' },
      body: JSON.stringify({ model: 'gpt-5.4', input: 'Hi', stream: true, max_output_tokens: 99 }),
    })
    const text = await streamed.text()
    expect(text).toContain('event: response.completed')
    expect(text).toContain('Hello ')
    const sent = fake.responses.at(-1)!
    expect(sent.body.input).toEqual([{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Hi' }] }])
    expect(sent.headers.get('session_id')).toBe('sess-42')
    const openai = new OpenAI({ apiKey: key, baseURL: `${env.app.url}/v1`, maxRetries: 0 })
    const once = await openai.responses.create({ model: 'gpt-5.4', input: [{ role: 'user', content: 'Hi' }] })
    expect(once.output_text).toBe('Hello from Codex')
    expect(once.usage).toMatchObject({ input_tokens: 21, output_tokens: 4 })
    const rows = await logsWhen(env, userId, 6)
    expect(rows.slice(-2).map((r) => r.completionTokens)).toEqual([4, 4])
  })

  test('the channel test answers from the event stream', async () => {
    const res = await call(env.app, 'GET', `/api/channel/test/${channelId}?model=gpt-5.4`, undefined, as(root))
    expect(res.body).toMatchObject({ success: true })
  })
})

describe('refresh and usage', () => {
  test('refresh on demand rotates the tokens; the old access token is refused by the backend, the new one serves', async () => {
    const before = fake.current.access
    const res = await call(env.app, 'POST', `/api/channel/${channelId}/codex/refresh`, undefined, as(root))
    expect(res.body).toMatchObject({ success: true, data: { channel_id: channelId, account_id: ACCOUNT_ID } })
    expect(JSON.stringify(res.body)).not.toContain(fake.current.access)
    expect(fake.current.access).not.toBe(before)
    expect(fake.tokenCalls.at(-1)).toMatchObject({ grant_type: 'refresh_token', client_id: 'app_EMoamEEZ73f0CkXaXp7hrann' })
    const chat = await env.app.fetch('/v1/chat/completions', { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ model: 'gpt-5.4', messages: [{ role: 'user', content: 'Hi' }] }) })
    expect(chat.status).toBe(200)
  })

  test('two refreshes at once: one spends the refresh token, the other is refused (409) while the first holds the lease', async () => {
    let open!: () => void
    fake.hold = new Promise<void>((resolve) => (open = resolve))
    const calls = fake.tokenCalls.length
    const first = refreshCodexChannel(ports, channelId)
    await Bun.sleep(0)
    while (fake.tokenCalls.length === calls) await Bun.sleep(2)
    const second = await call(env.app, 'POST', `/api/channel/${channelId}/codex/refresh`, undefined, as(root))
    expect(second.status).toBe(409)
    expect(second.body.data.code).toBe('codex_refresh_running')
    open()
    fake.hold = undefined
    expect((await first).refreshed).toBe(true)
    expect(fake.tokenCalls.length).toBe(calls + 1)
  })

  test('the scheduled pass refreshes a key that expires within a day, and leaves one that does not', async () => {
    const deps = env.app.deps
    const key = () => JSON.parse(deps.routing.channels.get(channelId)!.keys[0]!)
    const expiry = Date.parse(key().expired)
    const calls = fake.tokenCalls.length
    // the clock a day and a half before expiry: nothing to do
    const early = await refreshDueCodexChannels({ ...ports, now: () => expiry - REFRESH_AHEAD_MS - 12 * 3_600_000 })
    expect(early.refreshed).toEqual([])
    expect(fake.tokenCalls.length).toBe(calls)
    // 2 hours before expiry: refreshed, the new expiry stored
    const due = await refreshDueCodexChannels({ ...ports, now: () => expiry - 2 * 3_600_000 })
    expect(due).toEqual({ refreshed: [channelId], failed: [] })
    expect(key().access_token).toBe(fake.current.access)
    expect(Date.parse(key().expired)).toBeGreaterThan(expiry)
  })

  test('usage reads the subscription\'s windows; a refused token is refreshed once and asked again', async () => {
    const res = await call(env.app, 'GET', `/api/channel/${channelId}/codex/usage`, undefined, as(root))
    expect(res.body).toMatchObject({ success: true, upstream_status: 200, data: { plan_type: 'pro', rate_limit: { primary_window: { used_percent: 12 } } } })
    // the backend forgets the token (revoked): the route refreshes and reads again
    fake.current = { ...fake.current, access: accessToken(999, Math.floor(Date.now() / 1000) + 60) }
    const calls = fake.usageCalls
    const again = await call(env.app, 'GET', `/api/channel/${channelId}/codex/usage`, undefined, as(root))
    expect(again.body).toMatchObject({ success: true, upstream_status: 200 })
    expect(fake.usageCalls).toBe(calls + 2)
  })

  test('the routes refuse a channel of another type and an unknown channel', async () => {
    const other = await env.addChannel({ type: 1, name: 'openai' })
    const wrong = await call(env.app, 'GET', `/api/channel/${other}/codex/usage`, undefined, as(root))
    expect(wrong.status).toBe(400)
    const missing = await call(env.app, 'POST', '/api/channel/99999/codex/refresh', undefined, as(root))
    expect(missing.status).toBe(404)
  })
})
