import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { UserStatus } from '../../../src/db/repos/user-roles'
import { addUser, login } from '../../helpers/accounts'
import type { RelayEnv } from '../../helpers/relay-env'
import { call } from '../../helpers/test-app'
import { chatBody, logsOf, logsWhen, settled, startMeteredEnv, userRow } from '../../metering/env'

/** POST /pg/chat/completions: the console's playground, authenticated by the session and billed to its user. */
let env: RelayEnv
let channel: number

beforeAll(async () => {
  env = await startMeteredEnv()
  channel = await env.addChannel({ type: 1, models: 'gpt-4o', name: 'pg-openai' })
})
afterAll(() => env.stop())
beforeEach(() => {
  env.upstream.reset()
  env.outcomes.length = 0
})

let users = 0
async function player(quota = 1_000_000) {
  const user = await addUser(env.app, { username: `player${++users}`, quota })
  return { user, cookie: await login(env.app, user.username) }
}

const pg = (body: unknown, headers: Record<string, string> = {}) =>
  env.app.fetch('/pg/chat/completions', { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) })

describe('relayed like /v1/chat/completions, charged to the logged-in user', () => {
  test('non-stream: the answer, the user’s quota falls by the logged charge, a "playground" log row', async () => {
    const { user, cookie } = await player()
    env.upstream.setBehavior({ text: 'hello from the playground', usage: { input: 100, output: 50 } })
    const res = await pg(chatBody('gpt-4o'), { cookie })
    expect(res.status).toBe(200)
    expect(res.headers.get('x-request-id')).toBeTruthy()
    const body = (await res.json()) as any
    expect(body.choices[0].message.content).toBe('hello from the playground')
    expect(env.upstream.requests).toHaveLength(1)
    expect(env.upstream.requests[0]!.headers.cookie).toBeUndefined() // the session never goes upstream

    const [log] = await logsOf(env, user.id)
    // gpt-4o: (100 + 50 × 4) × 1.25 = 375
    expect(log).toMatchObject({ type: 2, tokenName: 'playground', tokenId: -user.id, username: user.username, modelName: 'gpt-4o', channelId: channel, quota: 375, promptTokens: 100, completionTokens: 50, isStream: false, statusCode: 200, group: 'default' })
    expect(log!.requestId).toBe(res.headers.get('x-request-id')!)
    expect(await userRow(env, user.id)).toMatchObject({ quota: 1_000_000 - 375, usedQuota: 375, requestCount: 1 })
    expect(await env.app.deps.repos.tokens.liveById(-user.id)).toBeUndefined() // no token row was made or touched
  })

  test('stream: SSE through, billed by the reported usage, logged as a stream', async () => {
    const { user, cookie } = await player()
    env.upstream.setBehavior({ text: 'streamed playground answer', usage: { input: 40, output: 8 } })
    const res = await pg(chatBody('gpt-4o', { stream: true }), { cookie })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toContain('text/event-stream')
    const text = await res.text()
    expect(text).toContain('data: [DONE]')
    const content = text
      .split('\n')
      .filter((line) => line.startsWith('data: {'))
      .map((line) => JSON.parse(line.slice(6)).choices?.[0]?.delta?.content ?? '')
      .join('')
    expect(content).toBe('streamed playground answer')
    await settled(env, 1)
    const [log] = await logsOf(env, user.id)
    // (40 + 8 × 4) × 1.25 = 90
    expect(log).toMatchObject({ type: 2, tokenName: 'playground', quota: 90, isStream: true, promptTokens: 40, completionTokens: 8 })
    expect((await userRow(env, user.id)).quota).toBe(1_000_000 - 90)
  })

  test('an access token works as well as the cookie', async () => {
    const { user, cookie } = await player()
    const token = (await call(env.app, 'GET', '/api/user/token', undefined, { cookie })).body.data as string
    env.upstream.setBehavior({ text: 'ok', usage: { input: 10, output: 10 } })
    const res = await pg(chatBody('gpt-4o'), { authorization: `Bearer ${token}` })
    expect(res.status).toBe(200)
    expect(await logsOf(env, user.id)).toHaveLength(1)
  })

  test('the user’s balance is checked: too little quota is 403 insufficient_quota, logged, nothing sent upstream', async () => {
    const { user, cookie } = await player(10)
    const res = await pg(chatBody('gpt-4o'), { cookie })
    expect(res.status).toBe(403)
    const body = (await res.json()) as any
    expect(body.error).toMatchObject({ code: 'insufficient_quota' })
    expect(env.upstream.requests).toHaveLength(0)
    const [log] = await logsWhen(env, user.id, 1)
    expect(log).toMatchObject({ type: 5, tokenName: 'playground', statusCode: 403 })
    expect((await userRow(env, user.id)).quota).toBe(10)
  })
})

describe('errors in the OpenAI shape', () => {
  test('no session: 401, nothing sent upstream', async () => {
    const res = await pg(chatBody('gpt-4o'))
    expect(res.status).toBe(401)
    const body = (await res.json()) as any
    expect(body.error).toMatchObject({ message: expect.stringContaining('not logged in') })
    expect(body.success).toBeUndefined()
    expect(env.upstream.requests).toHaveLength(0)
  })

  test('a bad body is refused after the session, naming the field', async () => {
    const { cookie } = await player()
    // declared JSON (any other type is a 415 for everyone, tests/hardening/csrf.test.ts), not JSON: the session first
    const anonymous = await env.app.fetch('/pg/chat/completions', { method: 'POST', headers: { 'content-type': 'application/json' }, body: 'not json' })
    expect(anonymous.status).toBe(401)
    const res = await pg({ model: 'gpt-4o', messages: 'hi' }, { cookie })
    expect(res.status).toBe(400)
    expect(((await res.json()) as any).error.message).toContain('messages')
  })

  test('an unknown model: 404 model_not_found', async () => {
    const { cookie } = await player()
    const res = await pg(chatBody('no-such-model'), { cookie })
    expect(res.status).toBe(404)
    expect(((await res.json()) as any).error.code).toBe('model_not_found')
  })

  test('a user disabled after logging in: 403', async () => {
    const { user, cookie } = await player()
    await env.app.deps.repos.users.update(user.id, { status: UserStatus.disabled })
    const res = await pg(chatBody('gpt-4o'), { cookie })
    expect(res.status).toBe(403)
    expect(((await res.json()) as any).error.message).toContain('disabled')
    expect(env.upstream.requests).toHaveLength(0)
  })
})
