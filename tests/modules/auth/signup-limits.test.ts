import { afterAll, afterEach, beforeAll, expect, spyOn, test } from 'bun:test'
import { hashQueueStats, resetHashPeak } from '../../../src/modules/users/hash-queue'
import { addUser, USER_PASSWORD } from '../../helpers/accounts'
import { until } from '../../coord/backends'
import { call, startTestApp, type TestApp } from '../../helpers/test-app'

let app: TestApp
beforeAll(async () => {
  app = await startTestApp({ TRUST_PROXY: 'true' })
  await app.deps.options.set('RegisterEnabled', true)
})
afterAll(() => app.stop())

const realHash = Bun.password.hash
/** argon2id at a test's cost: the sign-ups here are about counting, not about the hash */
const cheapHash = (password: unknown) => realHash(password as string, { algorithm: 'argon2id', memoryCost: 4096, timeCost: 1 })
const spies: { mockRestore(): void }[] = []
afterEach(() => spies.splice(0).forEach((s) => s.mockRestore()))

const signUp = (username: string, ip: string, aff_code?: string) =>
  call(app, 'POST', '/api/user/register', { username, password: 'sign-up-password', ...(aff_code ? { aff_code } : {}) }, { 'x-forwarded-for': ip })

test('400 self-invited sign-ups: every invitee registers, the inviter is rewarded for the first QuotaForInviterMaxInvitees', async () => {
  spies.push(spyOn(Bun.password, 'hash').mockImplementation(cheapHash))
  await app.deps.options.set('RegisterLimitPerHour', 0)
  await app.deps.options.set('QuotaForInviter', 50_000)
  await app.deps.options.set('QuotaForInviterMaxInvitees', 5)
  const inviter = await addUser(app, { username: 'farmer', affCode: 'FARM01' })
  for (let batch = 0; batch < 400; batch += 25) {
    const results = await Promise.all(Array.from({ length: 25 }, (_, i) => signUp(`sock${batch + i}`, `10.50.${batch}.${i}`, 'FARM01')))
    expect(results.map((r) => r.status)).toEqual(Array(25).fill(200))
  }
  expect(await app.deps.repos.users.findById(inviter.id)).toMatchObject({ affCount: 400, affQuota: 250_000, affHistoryQuota: 250_000 })
}, 60_000)

test('sign-ups from one address stop at RegisterLimitPerHour with 429, the wait and a stable code; other addresses go on', async () => {
  spies.push(spyOn(Bun.password, 'hash').mockImplementation(cheapHash))
  await app.deps.options.set('RegisterLimitPerHour', 3)
  for (let i = 0; i < 3; i++) expect((await signUp(`one${i}`, '10.60.0.1')).status).toBe(200)
  const refused = await signUp('one3', '10.60.0.1')
  expect(refused.status).toBe(429)
  expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(3500)
  expect(refused.body).toEqual({ success: false, message: 'too many sign-ups from this address: try again in 60 minutes', data: { code: 'signup_rate_limited', retry_after: expect.any(Number) } })
  expect(await app.deps.repos.users.findByUsername('one3')).toBeUndefined()
  // a /64 is one address; the next /64 is another
  for (let i = 0; i < 3; i++) expect((await signUp(`six${i}`, `2001:db8:5:6::${i + 1}`)).status).toBe(200)
  expect((await signUp('six3', '2001:db8:5:6:ffff::9')).status).toBe(429)
  expect((await signUp('six4', '2001:db8:5:7::1')).status).toBe(200)
})

/** Hashes and checks that stop until `open()`, counting how many run at once. */
function gatedArgon2() {
  let release!: () => void
  const gate = new Promise<void>((resolve) => (release = resolve))
  const seen = { now: 0, most: 0 }
  const held = async <T>(work: () => Promise<T>): Promise<T> => {
    seen.most = Math.max(seen.most, ++seen.now)
    await gate
    seen.now--
    return work()
  }
  const realVerify = Bun.password.verify
  spies.push(spyOn(Bun.password, 'hash').mockImplementation((password) => held(() => cheapHash(password))))
  spies.push(spyOn(Bun.password, 'verify').mockImplementation((password, hash) => held(() => realVerify(password as string, hash))))
  return { seen, open: () => release() }
}

test('a flood of sign-ups never runs more than PasswordHashConcurrency hashes; past the queue it gets 503 at once', async () => {
  await app.deps.options.set('RegisterLimitPerHour', 0)
  await app.deps.options.set('PasswordHashConcurrency', 2)
  await app.deps.options.set('PasswordHashQueue', 3)
  resetHashPeak()
  const argon2 = gatedArgon2()
  let answered = 0
  const pending = Array.from({ length: 30 }, (_, i) => signUp(`flood${i}`, `10.70.0.${i}`).finally(() => answered++))
  // every request has reached the queue: five hold or wait for a turn, the other 25 are answered (on a slow machine
  // the queue can be full while some requests are still on their way to it)
  await until(() => hashQueueStats().running === 2 && hashQueueStats().waiting === 3 && answered === 25, 5000, 'queue full')
  argon2.open()
  const results = await Promise.all(pending)
  expect(results.filter((r) => r.status === 200)).toHaveLength(5)
  const busy = results.filter((r) => r.status === 503)
  expect(busy).toHaveLength(25)
  expect(busy[0]!.headers.get('retry-after')).toBe('1')
  expect(busy[0]!.body).toEqual({ success: false, message: 'the server is busy checking passwords: try again in 1 second', data: { code: 'busy', retry_after: 1 } })
  expect(argon2.seen.most).toBe(2)
  expect(hashQueueStats()).toMatchObject({ running: 0, waiting: 0, peak: 2 })
})

test('a flood of logins gets the same bound; a refused one is not counted as a failure', async () => {
  await addUser(app, { username: 'flooded' })
  await app.deps.options.set('PasswordHashConcurrency', 2)
  await app.deps.options.set('PasswordHashQueue', 3)
  await app.deps.options.set('LoginFailuresPerAddress', 1000)
  await app.deps.options.set('LoginFailuresPerAccount', 6)
  const argon2 = gatedArgon2()
  let answered = 0
  const pending = Array.from({ length: 20 }, () => call(app, 'POST', '/api/user/login', { username: 'flooded', password: 'wrong-password' }, { 'x-forwarded-for': '10.80.0.1' }).finally(() => answered++))
  await until(() => hashQueueStats().running === 2 && hashQueueStats().waiting === 3 && answered === 15, 5000, 'queue full')
  argon2.open()
  const statuses = (await Promise.all(pending)).map((r) => r.status)
  expect(statuses.filter((s) => s === 503)).toHaveLength(15)
  expect(statuses.filter((s) => s === 401)).toHaveLength(5)
  expect(argon2.seen.most).toBe(2)
  spies.splice(0).forEach((s) => s.mockRestore())
  // five failures counted, not twenty: the sixth is still free
  expect((await call(app, 'POST', '/api/user/login', { username: 'flooded', password: USER_PASSWORD }, { 'x-forwarded-for': '10.80.0.1' })).status).toBe(200)
})
