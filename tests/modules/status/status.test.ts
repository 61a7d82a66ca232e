import { afterAll, beforeAll, expect, test } from 'bun:test'
import { call, startTestApp, type TestApp } from '../../helpers/test-app'

let app: TestApp
beforeAll(async () => (app = await startTestApp()))
afterAll(() => app.stop())

test('GET /api/status is public and reports setup done when root exists', async () => {
  const res = await call(app, 'GET', '/api/status')
  expect(res.status).toBe(200)
  expect(res.body.success).toBe(true)
  expect(res.body.data.setup).toBe(true)
  expect(res.body.data.register_enabled).toBe(false)
  expect(res.body.data.quota_per_unit).toBe(500000)
  expect(res.headers.get('x-request-id')).toMatch(/^req_/)
})

test('unknown /api routes get a 404 envelope', async () => {
  const res = await call(app, 'GET', '/api/nope')
  expect(res.status).toBe(404)
  expect(res.body).toEqual({ success: false, message: 'no such route', data: expect.objectContaining({ code: expect.any(String) }) })
})

test('bodies over the limit get 413 in the envelope', async () => {
  const small = await startTestApp({ MAX_BODY_MB: '0.001' })
  try {
    // 4 KiB: over the 0.001 MiB limit, under Bun's own hard stop
    const res = await call(small, 'POST', '/api/status', 'x'.repeat(4096))
    expect(res.status).toBe(413)
    expect(res.body.success).toBe(false)
    expect(res.body.message).toContain('limit')
  } finally {
    await small.stop()
  }
})
