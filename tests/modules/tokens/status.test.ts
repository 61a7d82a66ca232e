import { afterAll, beforeAll, expect, test } from 'bun:test'
import { call, startTestApp, type TestApp } from '../../helpers/test-app'
import { makeUser, type TestUser } from './users'

let app: TestApp
let alice: TestUser
beforeAll(async () => {
  app = await startTestApp()
  alice = await makeUser(app, 'alice')
})
afterAll(() => app.stop())

const now = () => Math.floor(Date.now() / 1000)
const row = async (id: number) => (await app.deps.repos.tokens.findById(id))!

async function create(body: Record<string, unknown>): Promise<number> {
  const res = await call(app, 'POST', '/api/token/', { name: 'st', remain_quota: 100, ...body }, alice.headers)
  expect(res.status).toBe(200)
  return res.body.data.id
}

test('status_only disables and re-enables, changing nothing else', async () => {
  const id = await create({ name: 'toggle' })
  const off = await call(app, 'PUT', '/api/token/?status_only=1', { id, status: 2, name: 'ignored' }, alice.headers)
  expect(off.status).toBe(200)
  expect(off.body.data).toMatchObject({ status: 2, name: 'toggle' })
  expect(await row(id)).toMatchObject({ status: 2, name: 'toggle' })
  const on = await call(app, 'PUT', '/api/token/?status_only=1', { id, status: 1 }, alice.headers)
  expect(on.status).toBe(200)
  expect((await row(id)).status).toBe(1)
})

test('an expired token cannot be re-enabled until it gets a new expiry', async () => {
  const id = await create({ expired_time: now() + 3600 })
  await app.deps.repos.tokens.update(id, alice.user.id, { expiredTime: now() - 60, status: 3 })

  const refused = await call(app, 'PUT', '/api/token/?status_only=1', { id, status: 1 }, alice.headers)
  expect(refused.status).toBe(400)
  expect(refused.body.message).toContain('expired')
  expect(refused.body.message).toContain('expired_time')
  expect((await row(id)).status).toBe(3)

  // re-sending the stored (past) expiry with other edits is fine; the status stays
  const rename = await call(app, 'PUT', '/api/token/', { id, name: 'renamed', expired_time: (await row(id)).expiredTime }, alice.headers)
  expect(rename.status).toBe(200)
  expect(await row(id)).toMatchObject({ name: 'renamed', status: 3 })

  // a new expiry and re-enabling in one edit
  const fixed = await call(app, 'PUT', '/api/token/', { id, expired_time: -1, status: 1 }, alice.headers)
  expect(fixed.status).toBe(200)
  expect(await row(id)).toMatchObject({ status: 1, expiredTime: -1 })
})

test('an exhausted token cannot be re-enabled until it gets quota', async () => {
  const id = await create({ remain_quota: 0 })
  await app.deps.repos.tokens.update(id, alice.user.id, { status: 4 })

  const refused = await call(app, 'PUT', '/api/token/?status_only=1', { id, status: 1 }, alice.headers)
  expect(refused.status).toBe(400)
  expect(refused.body.message).toContain('quota')
  expect((await row(id)).status).toBe(4)

  const quota = await call(app, 'PUT', '/api/token/', { id, remain_quota: 500 }, alice.headers)
  expect(quota.status).toBe(200)
  expect((await row(id)).status).toBe(4)
  const on = await call(app, 'PUT', '/api/token/?status_only=1', { id, status: 1 }, alice.headers)
  expect(on.status).toBe(200)
  expect(await row(id)).toMatchObject({ status: 1, remainQuota: 500 })

  const unlimited = await create({ remain_quota: 0 })
  await app.deps.repos.tokens.update(unlimited, alice.user.id, { status: 4 })
  const viaUnlimited = await call(app, 'PUT', '/api/token/', { id: unlimited, unlimited_quota: true, status: 1 }, alice.headers)
  expect(viaUnlimited.status).toBe(200)
  expect((await row(unlimited)).status).toBe(1)
})

test('a disabled token past its expiry cannot be enabled either', async () => {
  const id = await create({})
  await app.deps.repos.tokens.update(id, alice.user.id, { status: 2, expiredTime: now() - 1 })
  const res = await call(app, 'PUT', '/api/token/?status_only=1', { id, status: 1 }, alice.headers)
  expect(res.status).toBe(400)
  expect((await row(id)).status).toBe(2)
})

test('users cannot set the gateway-owned statuses 3 and 4', async () => {
  const id = await create({})
  for (const status of [3, 4]) {
    const res = await call(app, 'PUT', '/api/token/?status_only=1', { id, status }, alice.headers)
    expect(res.status).toBe(400)
    expect(res.body.message).toContain('status')
  }
  expect((await row(id)).status).toBe(1)
  // re-sending the current status is a no-op, not an error
  const same = await call(app, 'PUT', '/api/token/', { id, status: 1, name: 'same' }, alice.headers)
  expect(same.status).toBe(200)
})
