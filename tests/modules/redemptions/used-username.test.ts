import { afterAll, beforeAll, expect, test } from 'bun:test'
import { Role } from '../../../src/db/repos/user-roles'
import { addUser, login } from '../../helpers/accounts'
import { call, startTestApp, type TestApp } from '../../helpers/test-app'

let app: TestApp
let admin: string

beforeAll(async () => {
  app = await startTestApp()
  await addUser(app, { username: 'boss', role: Role.admin })
  admin = await login(app, 'boss')
})
afterAll(() => app.stop())

test('lists and the single view name who redeemed a code; empty before, and once that account is gone', async () => {
  const dora = await addUser(app, { username: 'dora' })
  const { keys, items } = (await call(app, 'POST', '/api/redemption/', { name: 'named', count: 2, quota: 10 }, { cookie: admin })).body.data
  expect(items[0].used_username).toBe('')
  expect((await call(app, 'POST', '/api/user/topup', { key: keys[0] }, { cookie: await login(app, 'dora') })).status).toBe(200)

  const listed = (await call(app, 'GET', '/api/redemption/?keyword=named', undefined, { cookie: admin })).body.data.items
  const used = listed.find((item: any) => item.used_user_id === dora.id)
  expect(used).toMatchObject({ status: 3, used_username: 'dora' })
  expect(listed.find((item: any) => item.used_user_id === 0).used_username).toBe('')
  expect((await call(app, 'GET', `/api/redemption/${used.id}`, undefined, { cookie: admin })).body.data.used_username).toBe('dora')

  await app.deps.repos.users.delete(dora.id)
  expect((await call(app, 'GET', `/api/redemption/${used.id}`, undefined, { cookie: admin })).body.data).toMatchObject({ used_user_id: dora.id, used_username: '' })
})
