import { afterAll, beforeAll, expect, test } from 'bun:test'
import { Role } from '../../../src/db/repos/user-roles'
import { addUser, as, login } from '../../helpers/accounts'
import { call, startTestApp, type TestApp } from '../../helpers/test-app'

let app: TestApp
let root: Record<string, string>
beforeAll(async () => {
  app = await startTestApp()
  root = as(await login(app))
})
afterAll(() => app.stop())

const stored = (key: string) => app.db.$client.query('SELECT value FROM options WHERE key = ?').get(key) as { value: string } | null

test('GET /api/option/ lists typed options for root', async () => {
  const res = await call(app, 'GET', '/api/option/', undefined, root)
  expect(res.status).toBe(200)
  const register = res.body.data.find((o: { key: string }) => o.key === 'RegisterEnabled')
  expect(register).toEqual({ key: 'RegisterEnabled', value: false, type: 'boolean', description: expect.any(String) })
  expect(res.body.data.find((o: { key: string }) => o.key === 'QuotaPerUnit').value).toBe(500000)
})

test('PUT /api/option/ validates, persists and takes effect at once', async () => {
  const res = await call(app, 'PUT', '/api/option/', { key: 'RegisterEnabled', value: true }, root)
  expect(res.status).toBe(200)
  expect(res.body.data).toEqual({ key: 'RegisterEnabled', value: true })
  expect(stored('RegisterEnabled')).toEqual({ value: 'true' })
  expect((await call(app, 'GET', '/api/status')).body.data.register_enabled).toBe(true)

  expect((await call(app, 'PUT', '/api/option/', { key: 'QuotaForNewUser', value: '2500' }, root)).status).toBe(200)
  expect(app.deps.options.get<number>('QuotaForNewUser')).toBe(2500)
  expect((await call(app, 'PUT', '/api/option/', { key: 'SystemName', value: 'Gate' }, root)).body.data.value).toBe('Gate')
})

test('bad keys and values are 400 naming them, and nothing is stored', async () => {
  const unknown = await call(app, 'PUT', '/api/option/', { key: 'NoSuchOption', value: 1 }, root)
  expect(unknown.status).toBe(400)
  expect(unknown.body.message).toContain('NoSuchOption')
  const badType = await call(app, 'PUT', '/api/option/', { key: 'QuotaForInviter', value: 'lots' }, root)
  expect(badType.status).toBe(400)
  expect(badType.body.message).toContain('QuotaForInviter')
  const negative = await call(app, 'PUT', '/api/option/', { key: 'QuotaForInviter', value: -5 }, root)
  expect(negative.status).toBe(400)
  expect(stored('QuotaForInviter')).toBeNull()
  expect((await call(app, 'PUT', '/api/option/', { key: 'RegisterEnabled', value: 'maybe' }, root)).status).toBe(400)
  expect((await call(app, 'PUT', '/api/option/', { value: 1 }, root)).status).toBe(400)
  expect((await call(app, 'PUT', '/api/option/', { key: 'SystemName', value: null }, root)).status).toBe(400)
  expect((await call(app, 'PUT', '/api/option/', '{', root)).status).toBe(400)
})

test('options are root only', async () => {
  await addUser(app, { username: 'boss', role: Role.admin })
  const admin = as(await login(app, 'boss'))
  expect((await call(app, 'GET', '/api/option/', undefined, admin)).status).toBe(403)
  expect((await call(app, 'PUT', '/api/option/', { key: 'RegisterEnabled', value: true }, admin)).status).toBe(403)
  expect((await call(app, 'GET', '/api/option/')).status).toBe(401)
})
