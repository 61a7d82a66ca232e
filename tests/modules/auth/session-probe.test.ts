import { afterAll, beforeAll, expect, test } from 'bun:test'
import { ROOT_PASSWORD, startTestApp, type TestApp } from '../../helpers/test-app'

let app: TestApp
beforeAll(async () => {
  app = await startTestApp()
})
afterAll(() => app.stop())

test('GET /api/user/session answers 200 with null when logged out, the user when logged in, null after logout', async () => {
  const anonymous = await app.fetch('/api/user/session')
  expect(anonymous.status).toBe(200)
  expect(await anonymous.json()).toEqual({ success: true, message: '', data: null })

  const login = await app.fetch('/api/user/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'root', password: ROOT_PASSWORD }) })
  const cookie = login.headers.get('set-cookie')!.split(';')[0]!
  const live = (await (await app.fetch('/api/user/session', { headers: { cookie } })).json()) as { data: { username: string; role: number } }
  expect(live.data).toMatchObject({ username: 'root', role: 100 })
  expect(JSON.stringify(live.data)).not.toContain('password')

  await app.fetch('/api/user/logout', { headers: { cookie } })
  const after = (await (await app.fetch('/api/user/session', { headers: { cookie } })).json()) as { data: unknown }
  expect(after.data).toBeNull()
})
