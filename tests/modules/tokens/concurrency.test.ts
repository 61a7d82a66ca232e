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

test('20 concurrent edits of one token leave exactly one submitted state, with no 500s', async () => {
  const id = (await call(app, 'POST', '/api/token/', { name: 'race', remain_quota: 1 }, alice.headers)).body.data.id
  const states = Array.from({ length: 20 }, (_, i) => ({
    id,
    name: `state-${i}`,
    remain_quota: 1000 + i,
    unlimited_quota: i % 2 === 0,
    model_limits_enabled: i % 3 === 0,
    model_limits: `model-${i}`,
    allow_ips: `10.0.${i}.0/24`,
    expired_time: 4_000_000_000 + i,
    status: i % 2 === 0 ? 1 : 2,
  }))
  const results = await Promise.all(states.map((state) => call(app, 'PUT', '/api/token/', state, alice.headers)))
  for (const res of results) {
    expect(res.status).toBe(200)
    expect(res.body.success).toBe(true)
  }

  const row = (await app.deps.repos.tokens.findById(id))!
  const final = {
    id: row.id,
    name: row.name,
    remain_quota: row.remainQuota,
    unlimited_quota: row.unlimitedQuota,
    model_limits_enabled: row.modelLimitsEnabled,
    model_limits: row.modelLimits,
    allow_ips: row.allowIps,
    expired_time: row.expiredTime,
    status: row.status,
  }
  expect(states).toContainEqual(final)
  // every response was itself one whole submitted state
  for (const res of results) {
    const { key, user_id, created_time, accessed_time, used_quota, group, ...rest } = res.body.data
    expect(states).toContainEqual(rest)
  }
})
