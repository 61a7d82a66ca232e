import { afterAll, beforeAll, expect, spyOn, test } from 'bun:test'
import { Role, sha256, UserStatus } from '../../../src/plugins/session'
import { ANTHROPIC_KEY_SOURCES, GEMINI_KEY_SOURCES, TokenAuthError, verifyToken, type TokenAuthReason, type VerifyTokenInput } from '../../../src/relay/auth'
import { createToken } from '../../../src/services/tokens'
import { startTestApp, type TestApp } from '../../helpers/test-app'

let app: TestApp
beforeAll(async () => (app = await startTestApp()))
afterAll(() => app.stop())

const now = () => Math.floor(Date.now() / 1000)
let seq = 0

function newUser(extra: { status?: number } = {}) {
  return app.deps.repos.users.insert({ username: `u${++seq}`, password: 'x', role: Role.user, group: 'default', ...extra })
}

function newToken(fields: Parameters<typeof createToken>[1]['fields'] = {}, user = newUser()) {
  const { token, key } = createToken(app.deps, { user, fields: { name: 'relay', remain_quota: 1000, ...fields } })
  return { token, key, user }
}

const bearer = (key: string) => new Headers({ authorization: `Bearer ${key}` })
const verify = (input: Partial<VerifyTokenInput> & { headers: Headers }) => verifyToken(app.deps, { clientIp: '127.0.0.1', ...input })

function refusal(run: () => unknown): TokenAuthError {
  try {
    run()
  } catch (error) {
    expect(error).toBeInstanceOf(TokenAuthError)
    return error as TokenAuthError
  }
  throw new Error('expected a TokenAuthError')
}

function expectRefused(run: () => unknown, reason: TokenAuthReason, status = 401, words?: string) {
  const error = refusal(run)
  expect(error.reason).toBe(reason)
  expect(error.status).toBe(status)
  expect(error.code).toBe(status === 401 ? 'invalid_api_key' : 'ip_not_allowed')
  expect(error.message).toStartWith('unauthorized: ')
  if (words) expect(error.message).toContain(words)
  return error
}

/** Count SQL statements actually prepared against SQLite (every drizzle query prepares one). */
function countQueries() {
  const spy = spyOn(app.deps.db.$client, 'prepare')
  return { get count() { return spy.mock.calls.length }, restore: () => spy.mockRestore() }
}

test('a valid key resolves to its token and user, with or without sk-', () => {
  const { token, key, user } = newToken()
  const viaPrefix = verify({ headers: bearer(key) })
  expect(viaPrefix.token.id).toBe(token.id)
  expect(viaPrefix.user.id).toBe(user.id)
  expect(verify({ headers: bearer(key.slice(3)) }).token.id).toBe(token.id)
  expect(verify({ headers: new Headers({ authorization: `bearer   ${key}` }) }).token.id).toBe(token.id)
})

test('once warm, verification runs no SQL at all', () => {
  const { key } = newToken({ allow_ips: '127.0.0.0/8' })
  const queries = countQueries()
  try {
    verify({ headers: bearer(key) }) // cold: reads the token (the user was cached on insert)
    const cold = queries.count
    expect(cold).toBeGreaterThan(0)
    for (let i = 0; i < 100; i++) verify({ headers: bearer(key) })
    expect(queries.count).toBe(cold)

    // unknown keys are remembered too
    const unknown = bearer(`sk-${'Z'.repeat(48)}`)
    expectRefused(() => verify({ headers: unknown }), 'unknown_key')
    const afterUnknown = queries.count
    expectRefused(() => verify({ headers: unknown }), 'unknown_key')
    expect(queries.count).toBe(afterUnknown)

    // malformed keys never reach the database
    expectRefused(() => verify({ headers: bearer('sk-short') }), 'unknown_key')
    expect(queries.count).toBe(afterUnknown)
  } finally {
    queries.restore()
  }
})

test('the cache follows token writes made through the repo', () => {
  const { token, key, user } = newToken()
  verify({ headers: bearer(key) })
  app.deps.repos.tokens.update(token.id, user.id, { status: 2 })
  expectRefused(() => verify({ headers: bearer(key) }), 'token_disabled', 401, 'disabled')
  app.deps.repos.tokens.update(token.id, user.id, { status: 1 })
  expect(verify({ headers: bearer(key) }).token.status).toBe(1)
  app.deps.repos.tokens.deleteOwned([token.id], user.id)
  expectRefused(() => verify({ headers: bearer(key) }), 'unknown_key')
})

test('the cache follows user writes made through the user repo', () => {
  const { key, user } = newToken()
  verify({ headers: bearer(key) })
  app.deps.repos.users.update(user.id, { status: UserStatus.disabled })
  expectRefused(() => verify({ headers: bearer(key) }), 'user_disabled', 401, 'user')
  app.deps.repos.users.update(user.id, { status: UserStatus.enabled })
  expect(verify({ headers: bearer(key) }).user.status).toBe(UserStatus.enabled)
  app.deps.repos.users.delete(user.id)
  expectRefused(() => verify({ headers: bearer(key) }), 'unknown_key')
})

test('missing key: no header, empty bearer, other auth schemes', () => {
  expectRefused(() => verify({ headers: new Headers() }), 'missing_key', 401, 'no API key')
  expectRefused(() => verify({ headers: new Headers({ authorization: 'Bearer ' }) }), 'missing_key')
  expectRefused(() => verify({ headers: new Headers({ authorization: 'Basic abc' }) }), 'missing_key')
})

test('unknown key: the message names the case and masks the key', () => {
  const fake = `sk-${'a'.repeat(44)}WXYZ`
  const error = expectRefused(() => verify({ headers: bearer(fake) }), 'unknown_key', 401, 'invalid API key')
  expect(error.message).toContain('sk-aaaa**********WXYZ')
  expect(error.message).not.toContain(fake)
})

test('x-api-key only where the route allows it', () => {
  const { token, key } = newToken()
  const headers = new Headers({ 'x-api-key': key })
  expectRefused(() => verify({ headers }), 'missing_key', 401, 'Authorization: Bearer')
  expect(verify({ headers, sources: ANTHROPIC_KEY_SOURCES }).token.id).toBe(token.id)
  const missing = expectRefused(() => verify({ headers: new Headers(), sources: ANTHROPIC_KEY_SOURCES }), 'missing_key')
  expect(missing.message).toContain('x-api-key')
})

test('x-goog-api-key and ?key= for Gemini routes', () => {
  const { token, key } = newToken()
  expect(verify({ headers: new Headers({ 'x-goog-api-key': key }), sources: GEMINI_KEY_SOURCES }).token.id).toBe(token.id)
  const url = `http://gw/v1beta/models/gemini:generateContent?key=${key}`
  expect(verify({ headers: new Headers(), url, sources: GEMINI_KEY_SOURCES }).token.id).toBe(token.id)
  expectRefused(() => verify({ headers: new Headers(), url }), 'missing_key')
  expectRefused(() => verify({ headers: new Headers({ 'x-goog-api-key': key }), sources: ANTHROPIC_KEY_SOURCES }), 'missing_key')
})

test('disabled token', () => {
  const { token, key, user } = newToken()
  app.deps.repos.tokens.update(token.id, user.id, { status: 2 })
  expectRefused(() => verify({ headers: bearer(key) }), 'token_disabled', 401, 'disabled')
})

test('expired token is refused and marked status 3 exactly once', () => {
  const { token, key } = newToken({ expired_time: now() + 60 })
  expect(verify({ headers: bearer(key) }).token.id).toBe(token.id)
  const setStatus = spyOn(app.deps.repos.tokens, 'setStatusIf')
  try {
    const later = now() + 120
    expectRefused(() => verify({ headers: bearer(key), now: later }), 'token_expired', 401, 'expired')
    expect(app.deps.repos.tokens.findById(token.id)!.status).toBe(3)
    expectRefused(() => verify({ headers: bearer(key), now: later }), 'token_expired')
    expectRefused(() => verify({ headers: bearer(key), now: later }), 'token_expired')
    expect(setStatus).toHaveBeenCalledTimes(1)
  } finally {
    setStatus.mockRestore()
  }
  // already stored as 3 (e.g. by another node): refused without a write
  const other = newToken()
  app.deps.repos.tokens.update(other.token.id, other.user.id, { status: 3 })
  expectRefused(() => verify({ headers: bearer(other.key) }), 'token_expired')
})

test('exhausted token: no quota left and not unlimited', () => {
  const limited = newToken({ remain_quota: 0 })
  expectRefused(() => verify({ headers: bearer(limited.key) }), 'token_exhausted', 401, 'quota')
  // not persisted as 4: a refund can bring quota back
  expect(app.deps.repos.tokens.findById(limited.token.id)!.status).toBe(1)
  app.deps.repos.tokens.charge(limited.token.id, -10)
  expect(verify({ headers: bearer(limited.key) }).token.remainQuota).toBe(10)

  const unlimited = newToken({ remain_quota: 0, unlimited_quota: true })
  expect(verify({ headers: bearer(unlimited.key) }).token.id).toBe(unlimited.token.id)

  const stored4 = newToken()
  app.deps.repos.tokens.update(stored4.token.id, stored4.user.id, { status: 4 })
  expectRefused(() => verify({ headers: bearer(stored4.key) }), 'token_exhausted')
})

test('IP allow list: IPv4, IPv6, CIDR; 403 outside it', () => {
  const { key } = newToken({ allow_ips: '192.168.1.7\n10.0.0.0/8, 2001:db8::/32\n::1' })
  for (const ip of ['192.168.1.7', '10.255.0.1', '2001:db8:abcd::42', '::1']) {
    expect(verify({ headers: bearer(key), clientIp: ip }).token.allowIps).toContain('10.0.0.0/8')
  }
  for (const ip of ['192.168.1.8', '11.0.0.1', '2001:db9::1', '', 'garbage']) {
    const error = expectRefused(() => verify({ headers: bearer(key), clientIp: ip }), 'ip_not_allowed', 403, 'not allowed')
    expect(error.message).toContain(ip || '(unknown)')
  }
  const open = newToken({ allow_ips: '' })
  expect(verify({ headers: bearer(open.key), clientIp: '8.8.8.8' }).token.id).toBe(open.token.id)
})

test('a hand-edited allow list with no readable entry lets no one in', () => {
  const { token, key, user } = newToken()
  app.deps.repos.tokens.update(token.id, user.id, { allowIps: 'not-an-ip' })
  expectRefused(() => verify({ headers: bearer(key), clientIp: '127.0.0.1' }), 'ip_not_allowed', 403)
})

test('disabled user', () => {
  const user = newUser({ status: UserStatus.disabled })
  const { key } = newToken({}, user)
  expectRefused(() => verify({ headers: bearer(key) }), 'user_disabled', 401, 'disabled')
})

test('the stored hash is of the key body, so sha256 of what a client sends without sk- matches', () => {
  const { token, key } = newToken()
  expect(token.keyHash).toBe(sha256(key.slice(3)))
})
