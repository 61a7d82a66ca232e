import { afterAll, beforeAll, expect, spyOn, test } from 'bun:test'
import { Role, UserStatus } from '../../../src/db/repos/user-roles'
import { sha256 } from '../../../src/crypto/sha256'
import { ANTHROPIC_KEY_SOURCES, GEMINI_KEY_SOURCES, TokenAuthError, verifyToken, type TokenAuthReason, type VerifyTokenInput } from '../../../src/relay/auth'
import { createToken } from '../../../src/services/tokens'
import type { UserRow } from '../../../src/db/repos'
import { startTestApp, type TestApp } from '../../helpers/test-app'

let app: TestApp
beforeAll(async () => (app = await startTestApp()))
afterAll(() => app.stop())

const now = () => Math.floor(Date.now() / 1000)
let seq = 0

function newUser(extra: { status?: number } = {}) {
  return app.deps.repos.users.insert({ username: `u${++seq}`, password: 'x', role: Role.user, group: 'default', ...extra })
}

async function newToken(fields: Parameters<typeof createToken>[1]['fields'] = {}, owner?: UserRow) {
  const user = owner ?? (await newUser())
  const { token, key } = await createToken(app.deps, { user, fields: { name: 'relay', remain_quota: 1000, ...fields } })
  return { token, key, user }
}

const bearer = (key: string) => new Headers({ authorization: `Bearer ${key}` })
const verify = (input: Partial<VerifyTokenInput> & { headers: Headers }) => verifyToken(app.deps, { clientIp: '127.0.0.1', ...input })

/** The refusal `run` throws, or its promise rejects with (a key or user not cached yet is loaded first). */
async function refusal(run: () => unknown): Promise<TokenAuthError> {
  try {
    await run()
  } catch (error) {
    expect(error).toBeInstanceOf(TokenAuthError)
    return error as TokenAuthError
  }
  throw new Error('expected a TokenAuthError')
}

async function expectRefused(run: () => unknown, reason: TokenAuthReason, status = 401, words?: string) {
  const error = await refusal(run)
  expect(error.reason).toBe(reason)
  expect(error.status).toBe(status)
  expect(error.code).toBe(status === 401 ? 'invalid_api_key' : reason)
  expect(error.message).toStartWith('unauthorized: ')
  if (words) expect(error.message).toContain(words)
  return error
}

/** Count SQL statements actually prepared against SQLite (every drizzle query prepares one). */
function countQueries() {
  const spy = spyOn(app.db.$client, 'prepare')
  return { get count() { return spy.mock.calls.length }, restore: () => spy.mockRestore() }
}

test('a valid key resolves to its token and user, with or without sk-', async () => {
  const { token, key, user } = await newToken()
  const viaPrefix = await verify({ headers: bearer(key) })
  expect(viaPrefix.token.id).toBe(token.id)
  expect(viaPrefix.user.id).toBe(user.id)
  expect((await verify({ headers: bearer(key.slice(3)) })).token.id).toBe(token.id)
  expect((await verify({ headers: new Headers({ authorization: `bearer   ${key}` }) })).token.id).toBe(token.id)
})

test('once warm, verification runs no SQL at all', async () => {
  const { key } = await newToken({ allow_ips: '127.0.0.0/8' })
  const queries = countQueries()
  try {
    await verify({ headers: bearer(key) }) // cold: reads the token (the user was cached on insert)
    const cold = queries.count
    expect(cold).toBeGreaterThan(0)
    for (let i = 0; i < 100; i++) await verify({ headers: bearer(key) })
    expect(queries.count).toBe(cold)

    // unknown keys are remembered too
    const unknown = bearer(`sk-${'Z'.repeat(48)}`)
    await expectRefused(() => verify({ headers: unknown }), 'unknown_key')
    const afterUnknown = queries.count
    await expectRefused(() => verify({ headers: unknown }), 'unknown_key')
    expect(queries.count).toBe(afterUnknown)

    // malformed keys never reach the database
    await expectRefused(() => verify({ headers: bearer('sk-short') }), 'unknown_key')
    expect(queries.count).toBe(afterUnknown)
  } finally {
    queries.restore()
  }
})

test('the cache follows token writes made through the repo', async () => {
  const { token, key, user } = await newToken()
  await verify({ headers: bearer(key) })
  await app.deps.repos.tokens.update(token.id, user.id, { status: 2 })
  await expectRefused(() => verify({ headers: bearer(key) }), 'token_disabled', 401, 'disabled')
  await app.deps.repos.tokens.update(token.id, user.id, { status: 1 })
  expect((await verify({ headers: bearer(key) })).token.status).toBe(1)
  await app.deps.repos.tokens.deleteOwned([token.id], user.id)
  await expectRefused(() => verify({ headers: bearer(key) }), 'unknown_key')
})

test('the cache follows user writes made through the user repo', async () => {
  const { key, user } = await newToken()
  await verify({ headers: bearer(key) })
  await app.deps.repos.users.update(user.id, { status: UserStatus.disabled })
  await expectRefused(() => verify({ headers: bearer(key) }), 'user_disabled', 401, 'user')
  await app.deps.repos.users.update(user.id, { status: UserStatus.enabled })
  expect((await verify({ headers: bearer(key) })).user.status).toBe(UserStatus.enabled)
  await app.deps.repos.users.delete(user.id)
  await expectRefused(() => verify({ headers: bearer(key) }), 'unknown_key')
})

test('missing key: no header, empty bearer, other auth schemes', async () => {
  await expectRefused(() => verify({ headers: new Headers() }), 'missing_key', 401, 'no API key')
  await expectRefused(() => verify({ headers: new Headers({ authorization: 'Bearer ' }) }), 'missing_key')
  await expectRefused(() => verify({ headers: new Headers({ authorization: 'Basic abc' }) }), 'missing_key')
})

test('unknown key: the message names the case and masks the key', async () => {
  const fake = `sk-${'a'.repeat(44)}WXYZ`
  const error = await expectRefused(() => verify({ headers: bearer(fake) }), 'unknown_key', 401, 'invalid API key')
  expect(error.message).toContain('sk-aaaa**********WXYZ')
  expect(error.message).not.toContain(fake)
})

test('x-api-key only where the route allows it', async () => {
  const { token, key } = await newToken()
  const headers = new Headers({ 'x-api-key': key })
  await expectRefused(() => verify({ headers }), 'missing_key', 401, 'Authorization: Bearer')
  expect((await verify({ headers, sources: ANTHROPIC_KEY_SOURCES })).token.id).toBe(token.id)
  const missing = await expectRefused(() => verify({ headers: new Headers(), sources: ANTHROPIC_KEY_SOURCES }), 'missing_key')
  expect(missing.message).toContain('x-api-key')
})

test('x-goog-api-key and ?key= for Gemini routes', async () => {
  const { token, key } = await newToken()
  expect((await verify({ headers: new Headers({ 'x-goog-api-key': key }), sources: GEMINI_KEY_SOURCES })).token.id).toBe(token.id)
  const url = `http://gw/v1beta/models/gemini:generateContent?key=${key}`
  expect((await verify({ headers: new Headers(), url, sources: GEMINI_KEY_SOURCES })).token.id).toBe(token.id)
  await expectRefused(() => verify({ headers: new Headers(), url }), 'missing_key')
  await expectRefused(() => verify({ headers: new Headers({ 'x-goog-api-key': key }), sources: ANTHROPIC_KEY_SOURCES }), 'missing_key')
})

test('disabled token', async () => {
  const { token, key, user } = await newToken()
  await app.deps.repos.tokens.update(token.id, user.id, { status: 2 })
  await expectRefused(() => verify({ headers: bearer(key) }), 'token_disabled', 401, 'disabled')
})

test('expired token is refused and marked status 3 exactly once', async () => {
  const { token, key } = await newToken({ expired_time: now() + 60 })
  expect((await verify({ headers: bearer(key) })).token.id).toBe(token.id)
  const setStatus = spyOn(app.deps.repos.tokens, 'setStatusIf')
  try {
    const later = now() + 120
    await expectRefused(() => verify({ headers: bearer(key), now: later }), 'token_expired', 401, 'expired')
    expect((await app.deps.repos.tokens.findById(token.id))!.status).toBe(3)
    await expectRefused(() => verify({ headers: bearer(key), now: later }), 'token_expired')
    await expectRefused(() => verify({ headers: bearer(key), now: later }), 'token_expired')
    expect(setStatus).toHaveBeenCalledTimes(1)
  } finally {
    setStatus.mockRestore()
  }
  // already stored as 3 (e.g. by another node): refused without a write
  const other = await newToken()
  await app.deps.repos.tokens.update(other.token.id, other.user.id, { status: 3 })
  await expectRefused(() => verify({ headers: bearer(other.key) }), 'token_expired')
})

test('exhausted token: no quota left and not unlimited', async () => {
  const limited = await newToken({ remain_quota: 0 })
  await expectRefused(() => verify({ headers: bearer(limited.key) }), 'token_exhausted', 401, 'quota')
  // not persisted as 4: a refund can bring quota back
  expect((await app.deps.repos.tokens.findById(limited.token.id))!.status).toBe(1)
  await app.deps.repos.tokens.update(limited.token.id, limited.user.id, { remainQuota: 10 }) // a refund
  expect((await verify({ headers: bearer(limited.key) })).token.remainQuota).toBe(10)

  const unlimited = await newToken({ remain_quota: 0, unlimited_quota: true })
  expect((await verify({ headers: bearer(unlimited.key) })).token.id).toBe(unlimited.token.id)

  const stored4 = await newToken()
  await app.deps.repos.tokens.update(stored4.token.id, stored4.user.id, { status: 4 })
  await expectRefused(() => verify({ headers: bearer(stored4.key) }), 'token_exhausted')
})

test('IP allow list: IPv4, IPv6, CIDR; 403 outside it', async () => {
  const { key } = await newToken({ allow_ips: '192.168.1.7\n10.0.0.0/8, 2001:db8::/32\n::1' })
  for (const ip of ['192.168.1.7', '10.255.0.1', '2001:db8:abcd::42', '::1']) {
    expect((await verify({ headers: bearer(key), clientIp: ip })).token.allowIps).toContain('10.0.0.0/8')
  }
  for (const ip of ['192.168.1.8', '11.0.0.1', '2001:db9::1', '', 'garbage']) {
    const error = await expectRefused(() => verify({ headers: bearer(key), clientIp: ip }), 'ip_not_allowed', 403, 'not allowed')
    expect(error.message).toContain(ip || '(unknown)')
  }
  const open = await newToken({ allow_ips: '' })
  expect((await verify({ headers: bearer(open.key), clientIp: '8.8.8.8' })).token.id).toBe(open.token.id)
})

test('a hand-edited allow list with no readable entry lets no one in', async () => {
  const { token, key, user } = await newToken()
  await app.deps.repos.tokens.update(token.id, user.id, { allowIps: 'not-an-ip' })
  await expectRefused(() => verify({ headers: bearer(key), clientIp: '127.0.0.1' }), 'ip_not_allowed', 403)
})

test('disabled user', async () => {
  const user = await newUser({ status: UserStatus.disabled })
  const { key } = await newToken({}, user)
  await expectRefused(() => verify({ headers: bearer(key) }), 'user_disabled', 401, 'disabled')
})

test("a token's group must be one its owner may use now: their own, '' (theirs, whatever it is), any for an admin", async () => {
  const owner = await app.deps.repos.users.insert({ username: `u${++seq}`, password: 'x', role: Role.user, group: 'vip' })
  const named = await newToken({ group: 'vip' }, owner)
  const following = await newToken({ group: '' }, owner)
  expect((await verify({ headers: bearer(named.key) })).token.group).toBe('vip')
  // moved through the repo, which every write path and every node's invalidation goes through
  await app.deps.repos.users.update(owner.id, { group: 'default' })
  await expectRefused(() => verify({ headers: bearer(named.key) }), 'group_not_allowed', 403, 'group "vip"')
  expect((await verify({ headers: bearer(following.key) })).user.group).toBe('default')
  // an admin may route in any group; demoted, no longer
  await app.deps.repos.users.update(owner.id, { role: Role.admin })
  expect((await verify({ headers: bearer(named.key) })).token.id).toBe(named.token.id)
  await app.deps.repos.users.update(owner.id, { role: Role.user })
  await expectRefused(() => verify({ headers: bearer(named.key) }), 'group_not_allowed', 403)
})

test('the stored hash is of the key body, so sha256 of what a client sends without sk- matches', async () => {
  const { token, key } = await newToken()
  expect(token.keyHash).toBe(sha256(key.slice(3)))
})
