import { afterAll, beforeAll, expect, test } from 'bun:test'
import { createLocalLogin } from '../../../src/coord/local-login'
import { addUser, USER_PASSWORD } from '../../helpers/accounts'
import { call, ROOT_PASSWORD, startTestApp, type TestApp } from '../../helpers/test-app'

let app: TestApp
beforeAll(async () => {
  app = await startTestApp({ TRUST_PROXY: 'true' })
  await app.deps.options.set('LoginFailuresPerWindow', 3)
  await app.deps.options.set('LoginFailureWindowSeconds', 120)
})
afterAll(() => app.stop())

const from = (ip: string) => ({ 'x-forwarded-for': ip })

test('repeated failures for one username are refused with 429 and retry-after, even from new IPs', async () => {
  await addUser(app, { username: 'target' })
  for (let i = 0; i < 3; i++) {
    const res = await call(app, 'POST', '/api/user/login', { username: 'target', password: 'wrong-password' }, from(`10.0.0.${i}`))
    expect(res.status).toBe(401)
  }
  const blocked = await call(app, 'POST', '/api/user/login', { username: 'target', password: USER_PASSWORD }, from('10.0.0.99'))
  expect(blocked.status).toBe(429)
  expect(blocked.body).toEqual({ success: false, message: expect.stringContaining('too many'), data: null })
  const retryAfter = Number(blocked.headers.get('retry-after'))
  expect(retryAfter).toBeGreaterThan(0)
  expect(retryAfter).toBeLessThanOrEqual(120)
  expect(blocked.headers.getSetCookie()).toEqual([])
  // other users are not affected
  expect((await call(app, 'POST', '/api/user/login', { username: 'root', password: ROOT_PASSWORD }, from('10.0.0.98'))).status).toBe(200)
})

test('repeated failures from one IP are refused across usernames', async () => {
  for (const name of ['a1', 'a2', 'a3']) {
    expect((await call(app, 'POST', '/api/user/login', { username: name, password: 'wrong-password' }, from('10.1.1.1'))).status).toBe(401)
  }
  const res = await call(app, 'POST', '/api/user/login', { username: 'root', password: ROOT_PASSWORD }, from('10.1.1.1'))
  expect(res.status).toBe(429)
  expect(res.headers.get('retry-after')).toBeTruthy()
})

test('a parallel burst cannot get more than the limit of password checks through', async () => {
  const results = await Promise.all(
    Array.from({ length: 10 }, () => call(app, 'POST', '/api/user/login', { username: 'burst', password: 'wrong-password' }, from('10.2.2.2'))),
  )
  expect(results.filter((r) => r.status === 401)).toHaveLength(3)
  expect(results.filter((r) => r.status === 429)).toHaveLength(7)
})

test('successful logins do not count against the limit', async () => {
  await addUser(app, { username: 'regular' })
  for (let i = 0; i < 5; i++) {
    expect((await call(app, 'POST', '/api/user/login', { username: 'regular', password: USER_PASSWORD }, from('10.3.3.3'))).status).toBe(200)
  }
})

test('windows expire and the counter map stays bounded', () => {
  let now = 1_000_000
  const limiter = createLocalLogin(() => now)
  expect(limiter.attempt(['k'], 2, 60).ok).toBe(true)
  expect(limiter.attempt(['k'], 2, 60).ok).toBe(true)
  expect(limiter.attempt(['k'], 2, 60)).toEqual({ ok: false, retryAfter: 60 })
  now += 60_001
  expect(limiter.attempt(['k'], 2, 60).ok).toBe(true)

  for (let i = 0; i < 12_000; i++) limiter.attempt([`ip:${i}`], 2, 60)
  expect(limiter.size()).toBeLessThanOrEqual(10_000)
})
