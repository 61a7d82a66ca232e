import { afterAll, beforeAll, expect, test } from 'bun:test'
import { Role } from '../../../src/db/repos/user-roles'
import { call, startTestApp, type TestApp } from '../../helpers/test-app'
import { userHeaders } from '../channels/helpers'

/** GET /api/data/channel_stats (issue #30, per-channel latency and errors): admins only, the range bounded, busiest first, names from the channels. */
let app: TestApp
beforeAll(async () => {
  app = await startTestApp()
})
afterAll(() => app.stop())

test('per channel: requests, errors, error rate and p50/p95 of the successes, busiest first', async () => {
  const admin = await userHeaders(app, Role.admin)
  const quiet = await call(app, 'POST', '/api/channel/', { name: 'quiet', type: 1, key: 'sk-a', base_url: 'http://127.0.0.1:9', models: 'm' }, admin)
  const busy = await call(app, 'POST', '/api/channel/', { name: 'busy', type: 1, key: 'sk-b', base_url: 'http://127.0.0.1:9', models: 'm' }, admin)
  const [q, b] = [quiet.body.data.id, busy.body.data.id]
  const now = Math.floor(Date.now() / 1000)
  const row = (channelId: number, type: number, useTimeMs: number) => ({ userId: 1, type, channelId, useTimeMs, createdAt: now - 60, content: '', modelName: 'm' })
  await app.deps.repos.logs.insertMany([row(q, 2, 40), row(q, 5, 5), ...[100, 200, 300, 400].map((ms) => row(b, 2, ms)), row(b, 2, 5000)])
  await app.deps.repos.drainMetering()
  const res = await call(app, 'GET', '/api/data/channel_stats', undefined, admin)
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  expect(res.body.data.items).toEqual([
    { channel_id: b, name: 'busy', requests: 5, errors: 0, error_rate: 0, p50_ms: 300, p95_ms: 5000 },
    { channel_id: q, name: 'quiet', requests: 2, errors: 1, error_rate: 0.5, p50_ms: 40, p95_ms: 40 },
  ])
  // an hour ago to 30 minutes ago: nothing
  const earlier = await call(app, 'GET', `/api/data/channel_stats?start_timestamp=${now - 3600}&end_timestamp=${now - 1800}`, undefined, admin)
  expect(earlier.body.data.items).toEqual([])
})

test('a user is refused; a range over 31 days is a 400', async () => {
  const user = await userHeaders(app, Role.user)
  expect((await call(app, 'GET', '/api/data/channel_stats', undefined, user)).status).toBe(403)
  const admin = await userHeaders(app, Role.admin)
  const wide = await call(app, 'GET', `/api/data/channel_stats?start_timestamp=0&end_timestamp=${40 * 86400}`, undefined, admin)
  expect(wide.status).toBe(400)
  expect(wide.body.success).toBe(false)
})
