import { afterEach, beforeEach, expect, test } from 'bun:test'
import { ROOT_START_QUOTA } from '../../../src/modules/setup/bootstrap'
import { Role } from '../../../src/db/repos/user-roles'
import { call, startTestApp, type TestApp } from '../../helpers/test-app'

let app: TestApp
beforeEach(async () => (app = await startTestApp({ ROOT_PASSWORD: '' })))
afterEach(() => app.stop())

const body = { username: 'admin', password: 'a-good-password', confirmPassword: 'a-good-password' }

test('without ROOT_PASSWORD the instance starts in setup mode with an empty database', async () => {
  expect(await app.deps.repos.users.count()).toBe(0)
  const res = await call(app, 'GET', '/api/setup')
  expect(res.status).toBe(200)
  expect(res.body).toEqual({ success: true, message: '', data: { status: false, root_init: false, code_required: false } })
  expect((await call(app, 'GET', '/api/status')).body.data.setup).toBe(false)
})

test('POST /api/setup creates root once; a second call is refused', async () => {
  const res = await call(app, 'POST', '/api/setup', body)
  expect(res.status).toBe(200)
  expect(res.body.success).toBe(true)
  expect(res.body.data).toMatchObject({ username: 'admin', role: Role.root })
  expect(JSON.stringify(res.body)).not.toContain('argon2')

  const row = (await app.deps.repos.users.findByUsername('admin'))!
  expect(row.role).toBe(Role.root)
  expect(row.quota).toBe(ROOT_START_QUOTA)
  expect(await Bun.password.verify('a-good-password', row.password)).toBe(true)
  expect(row.password).toStartWith('$argon2id$')
  expect((await call(app, 'GET', '/api/setup')).body.data).toEqual({ status: true, root_init: true, code_required: false })

  const again = await call(app, 'POST', '/api/setup', { ...body, username: 'other' })
  expect(again.status).toBe(409)
  expect(again.body).toEqual({ success: false, message: expect.stringContaining('already'), data: expect.objectContaining({ code: expect.any(String) }) })
  expect(await app.deps.repos.users.count()).toBe(1)

  const login = await call(app, 'POST', '/api/user/login', { username: 'admin', password: 'a-good-password' })
  expect(login.status).toBe(200)
})

test('concurrent setup calls create exactly one root', async () => {
  const results = await Promise.all(
    Array.from({ length: 8 }, (_, i) => call(app, 'POST', '/api/setup', { ...body, username: `root${i}` })),
  )
  expect(results.filter((r) => r.status === 200)).toHaveLength(1)
  expect(results.filter((r) => r.status === 409)).toHaveLength(7)
  expect(await app.deps.repos.users.count()).toBe(1)
})

test('setup validates passwords and username', async () => {
  const mismatch = await call(app, 'POST', '/api/setup', { ...body, confirmPassword: 'something-else' })
  expect(mismatch.status).toBe(400)
  expect(mismatch.body.message).toContain('confirmPassword')

  const short = await call(app, 'POST', '/api/setup', { ...body, password: 'short', confirmPassword: 'short' })
  expect(short.status).toBe(400)
  expect(short.body.message).toContain('password')

  const long = 'x'.repeat(65)
  expect((await call(app, 'POST', '/api/setup', { ...body, password: long, confirmPassword: long })).status).toBe(400)
  expect((await call(app, 'POST', '/api/setup', { ...body, username: '' })).status).toBe(400)
  expect((await call(app, 'POST', '/api/setup', { ...body, username: 'a'.repeat(21) })).status).toBe(400)
  expect((await call(app, 'POST', '/api/setup', { ...body, username: 'bad name' })).status).toBe(400)
  expect((await call(app, 'POST', '/api/setup', '{not json')).status).toBe(400)
  expect(await app.deps.repos.users.count()).toBe(0)
})

test('with ROOT_PASSWORD setup is already done', async () => {
  const seeded = await startTestApp()
  try {
    expect((await call(seeded, 'GET', '/api/setup')).body.data).toEqual({ status: true, root_init: true, code_required: false })
    expect((await call(seeded, 'POST', '/api/setup', body)).status).toBe(409)
  } finally {
    await seeded.stop()
  }
})

test('the setup question sets self-use mode and sign-ups; new-api\'s SelfUseModeEnabled is understood', async () => {
  const cases = [
    { send: { usage: 'self' }, selfUse: true, register: false },
    { send: { usage: 'team' }, selfUse: true, register: false },
    { send: { usage: 'public' }, selfUse: false, register: true },
    { send: { SelfUseModeEnabled: true }, selfUse: true, register: false },
  ]
  for (const { send, selfUse, register } of cases) {
    const fresh = await startTestApp({ ROOT_PASSWORD: '' })
    try {
      await fresh.deps.options.set('SelfUseModeEnabled', !selfUse)
      await fresh.deps.options.set('RegisterEnabled', !register)
      const res = await call(fresh, 'POST', '/api/setup', { ...body, ...send })
      expect(res.status).toBe(200)
      expect([fresh.deps.options.get('SelfUseModeEnabled'), fresh.deps.options.get('RegisterEnabled')]).toEqual([selfUse, register])
      expect((await call(fresh, 'GET', '/api/status')).body.data.register_enabled).toBe(register)
    } finally {
      await fresh.stop()
    }
  }
  const bad = await call(app, 'POST', '/api/setup', { ...body, usage: 'everyone' })
  expect(bad.status).toBe(400)
  expect(await app.deps.repos.users.count()).toBe(0)
})
