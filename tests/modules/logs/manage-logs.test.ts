import { afterAll, beforeAll, expect, test } from 'bun:test'
import { createApp } from '../../../src/app'
import { Role } from '../../../src/db/repos/user-roles'
import { addUser, login } from '../../helpers/accounts'
import { call, startTestApp, type TestApp } from '../../helpers/test-app'

/** Admin actions on channels, users, options (and a user's own tokens) are written as manage logs (type 3). */
let app: TestApp
let root: string
let user: string
let userId: number
beforeAll(async () => {
  app = await startTestApp()
  root = await login(app, 'root')
  userId = (await addUser(app, { username: 'dave' })).id
  user = await login(app, 'dave')
})
afterAll(() => app.stop())

async function manageLogs() {
  const res = await call(app, 'GET', '/api/log/?type=3&page_size=100', undefined, { cookie: root })
  return res.body.data.items as any[]
}

test('channel, user, option and token changes each leave a row naming actor, action and target; secrets never', async () => {
  const secret = 'sk-upstream-very-secret-0000000000'
  const created = await call(app, 'POST', '/api/channel/', { name: 'audited', type: 1, key: secret, models: 'gpt-4o' }, { cookie: root })
  expect(created.status).toBe(200)
  expect((await call(app, 'PUT', '/api/user/', { id: userId, quota: 1234 }, { cookie: root })).status).toBe(200)
  expect((await call(app, 'POST', '/api/user/manage', { id: userId, action: 'disable' }, { cookie: root })).status).toBe(200)
  expect((await call(app, 'PUT', '/api/option/', { key: 'LogRetentionDays', value: 30 }, { cookie: root })).status).toBe(200)
  expect((await call(app, 'POST', '/api/token/', { name: 'mine' }, { cookie: root })).status).toBe(200)

  const logs = await manageLogs()
  const contents = logs.map((l) => l.content)
  expect(contents).toContain('channel: POST /api/channel/')
  expect(contents).toContain('user: PUT /api/user/')
  expect(contents).toContain('user: POST /api/user/manage')
  expect(contents).toContain('option: PUT /api/option/')
  expect(contents).toContain('token: POST /api/token/')
  for (const log of logs) expect(log).toMatchObject({ type: 3, username: 'root', ip: '127.0.0.1' })
  expect(JSON.stringify(logs)).not.toContain(secret)
  const channel = logs.find((l) => l.content === 'channel: POST /api/channel/')
  expect(channel.other).toMatchObject({ name: 'audited', key: '[redacted]' })
  expect(logs.find((l) => l.content === 'user: PUT /api/user/').other).toMatchObject({ id: userId, quota: 1234 })
  expect(logs.find((l) => l.content === 'option: PUT /api/option/').other).toEqual({ key: 'LogRetentionDays', value: 30 })
})

test('reads and refused changes leave no row', async () => {
  const before = (await manageLogs()).length
  await call(app, 'GET', '/api/channel/', undefined, { cookie: root })
  expect((await call(app, 'PUT', '/api/option/', { key: 'LogRetentionDays', value: -1 }, { cookie: root })).status).toBe(400)
  expect((await call(app, 'PUT', '/api/option/', { key: 'LogRetentionDays', value: 1 }, { cookie: user })).status).toBeGreaterThanOrEqual(401)
  expect((await manageLogs()).length).toBe(before)
})

test('redemption codes: create, update and delete each leave a row; the codes never appear; a top-up is no manage row', async () => {
  const before = (await manageLogs()).length
  const created = await call(app, 'POST', '/api/redemption/', { name: 'audited-codes', count: 2, quota: 700 }, { cookie: root })
  expect(created.status).toBe(200)
  const [code, other] = created.body.data.keys as string[]
  const [first, second] = created.body.data.items as { id: number }[]
  expect((await call(app, 'PUT', '/api/redemption/', { id: first!.id, name: 'renamed-codes', quota: 800 }, { cookie: root })).status).toBe(200)
  expect((await call(app, 'DELETE', `/api/redemption/${second!.id}`, undefined, { cookie: root })).status).toBe(200)
  expect((await call(app, 'DELETE', '/api/redemption/invalid', undefined, { cookie: root })).status).toBe(200)
  await addUser(app, { username: 'redeemer' })
  expect((await call(app, 'POST', '/api/user/topup', { key: code }, { cookie: await login(app, 'redeemer') })).status).toBe(200)

  const logs = (await manageLogs()).slice(0, -before || undefined)
  expect(logs.map((l) => l.content).sort()).toEqual(
    ['redemption: POST /api/redemption/', 'redemption: PUT /api/redemption/', `redemption: DELETE /api/redemption/${second!.id}`, 'redemption: DELETE /api/redemption/invalid'].sort(),
  )
  for (const log of logs) expect(log).toMatchObject({ type: 3, username: 'root', ip: '127.0.0.1' })
  expect(logs.find((l) => l.content === 'redemption: POST /api/redemption/').other).toMatchObject({ name: 'audited-codes', count: 2, quota: 700 })
  expect(logs.find((l) => l.content === 'redemption: PUT /api/redemption/').other).toMatchObject({ id: first!.id, name: 'renamed-codes', quota: 800 })
  expect(JSON.stringify(await manageLogs())).not.toContain(code!)
  expect(JSON.stringify(await manageLogs())).not.toContain(other!)
})

test('every admin write route records its change: the manage-log hook is on each one, and on no read', () => {
  const hooked = (route: { hooks: unknown }) => {
    const after = ((route.hooks as { afterHandle?: unknown[] }).afterHandle ?? []) as ({ fn?: Function } | Function)[]
    return after.some((hook) => (typeof hook === 'function' ? hook : hook.fn)?.name === 'logManageChange')
  }
  const role = (route: { hooks: unknown }) => (route.hooks as { detail?: Record<string, unknown> }).detail?.['x-tollgate-role'] as number | undefined
  const adminWrites = createApp(app.deps).routes.filter((r) => r.path.startsWith('/api/') && r.method !== 'GET' && (role(r) ?? 0) >= Role.admin)
  expect(adminWrites.length).toBeGreaterThan(10)
  expect(adminWrites.filter((r) => !hooked(r)).map((r) => `${r.method} ${r.path}`)).toEqual([])
  const topup = createApp(app.deps).routes.find((r) => r.method === 'POST' && r.path === '/api/user/topup')!
  expect(hooked(topup)).toBe(false)
})
