import { afterAll, beforeAll, expect, test } from 'bun:test'
import { addressGroup } from '../../../src/modules/auth/login-keys'
import { controlActions } from '../../../src/cli/control'
import { addUser, USER_PASSWORD } from '../../helpers/accounts'
import { stopLoginClock } from '../../helpers/login-clock'
import { call, ROOT_PASSWORD, startTestApp, type TestApp } from '../../helpers/test-app'

let app: TestApp
beforeAll(async () => {
  app = await startTestApp({ TRUST_PROXY: 'true' })
})
afterAll(() => app.stop())

async function stopTheClock(): Promise<void> {
  stopLoginClock(app.deps)
  await app.deps.options.set('LoginFailuresPerAccount', 3)
  await app.deps.options.set('LoginFailuresPerAddress', 8)
}

const from = (ip: string) => ({ 'x-forwarded-for': ip })
const attempt = (username: string, password: string, ip: string) => call(app, 'POST', '/api/user/login', { username, password }, from(ip))

// the default limits: twelve failures for root's name are more than any one limit of the old per-username kind
test('failures as ROOT and root from anywhere else never lock the owner out of their own address', async () => {
  // root's hash made cheap for speed, as addUser's are
  await app.deps.repos.users.update(1, { password: Bun.password.hashSync(ROOT_PASSWORD, { algorithm: 'argon2id', memoryCost: 4096, timeCost: 1 }) })
  for (let i = 0; i < 12; i++) {
    const res = await attempt(i === 0 ? 'ROOT' : 'root', 'wrong-password', `10.0.0.${i % 3}`)
    expect([401, 429]).toContain(res.status)
  }
  expect((await attempt('root', ROOT_PASSWORD, '10.200.0.1')).status).toBe(200)
}, 20_000)

test('the owner’s own failures wait: 429 with Retry-After, the wait in the message and a stable code', async () => {
  await stopTheClock()
  await addUser(app, { username: 'owner' })
  for (let i = 0; i < 3; i++) expect((await attempt('owner', 'wrong-password', '10.3.3.3')).status).toBe(401)
  const blocked = await attempt('owner', USER_PASSWORD, '10.3.3.3')
  expect(blocked.status).toBe(429)
  const retryAfter = Number(blocked.headers.get('retry-after'))
  expect(retryAfter).toBe(1)
  expect(blocked.body).toEqual({ success: false, message: 'too many failed logins: try again in 1 second', data: { code: 'login_rate_limited', retry_after: 1 } })
  // (the clock stands still: only the owner's address and this account wait)
  expect(blocked.headers.getSetCookie()).toEqual([])
  // the same account from another address is not held up
  expect((await attempt('owner', USER_PASSWORD, '10.3.3.4')).status).toBe(200)
})

test('one address spraying many accounts meets its own cap', async () => {
  for (let i = 0; i < 8; i++) await addUser(app, { username: `spray${i}` })
  for (let i = 0; i < 8; i++) expect((await attempt(`spray${i}`, 'wrong-password', '10.1.1.1')).status).toBe(401)
  const res = await attempt('root', ROOT_PASSWORD, '10.1.1.1')
  expect(res.status).toBe(429)
  expect(res.body.data.code).toBe('login_rate_limited')
  // stepping through an IPv6 /64 is one address
  for (let i = 0; i < 8; i++) expect((await attempt(`spray${i}`, 'wrong-password', `2001:db8:1:2::${(i + 1).toString(16)}`)).status).toBe(401)
  expect((await attempt('root', ROOT_PASSWORD, '2001:db8:1:2:ffff::1')).status).toBe(429)
  expect((await attempt('root', ROOT_PASSWORD, '2001:db8:1:3::1')).status).toBe(200)
})

test('reset-password clears the account’s counters: the new password works at once from the locked-out address', async () => {
  const user = await addUser(app, { username: 'forgetful' })
  for (let i = 0; i < 3; i++) expect((await attempt('forgetful', 'wrong-password', '10.4.4.4')).status).toBe(401)
  expect((await attempt('forgetful', USER_PASSWORD, '10.4.4.4')).status).toBe(429)
  // what `tollgate reset-password` runs, in the running gateway (control socket) or on the database directly
  expect(await controlActions({ repos: app.deps.repos }).resetPassword('forgetful', 'brand-new-password')).toEqual({ userId: user.id })
  expect((await attempt('forgetful', 'brand-new-password', '10.4.4.4')).status).toBe(200)
})

test('a parallel burst cannot get more than the free attempts through to the password check', async () => {
  await addUser(app, { username: 'burst' })
  const results = await Promise.all(Array.from({ length: 10 }, () => attempt('burst', 'wrong-password', '10.2.2.2')))
  expect(results.filter((r) => r.status === 401)).toHaveLength(3)
  expect(results.filter((r) => r.status === 429)).toHaveLength(7)
})

test('successful logins do not count against the limit', async () => {
  await addUser(app, { username: 'regular' })
  for (let i = 0; i < 10; i++) expect((await attempt('regular', USER_PASSWORD, '10.5.5.5')).status).toBe(200)
})

test('addresses: IPv4 as it is, IPv6 by its /64', () => {
  expect(addressGroup('203.0.113.9')).toBe('203.0.113.9')
  expect(addressGroup('2001:db8:1:2:3:4:5:6')).toBe('2001:db8:1:2::/64')
  expect(addressGroup('2001:DB8:1:2::ffff')).toBe('2001:db8:1:2::/64')
})
