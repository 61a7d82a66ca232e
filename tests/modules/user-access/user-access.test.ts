import { afterAll, beforeAll, expect, test } from 'bun:test'
import { Role } from '../../../src/db/repos/user-roles'
import { addUser, login } from '../../helpers/accounts'
import { startRelayEnv, type RelayEnv } from '../../helpers/relay-env'
import { call } from '../../helpers/test-app'

/** GET /api/user/models and /api/user/self/groups: what the logged-in user may use, in new-api's shapes. */
let env: RelayEnv
let user: string
let vip: string
let admin: string

beforeAll(async () => {
  env = await startRelayEnv()
  await env.addChannel({ type: 1, models: 'gpt-4o,gpt-4o-mini', group: 'default' })
  await env.addChannel({ type: 14, models: 'claude-sonnet-4-5,gpt-4o', group: 'default,vip' })
  await env.addChannel({ type: 1, models: 'vip-only', group: 'vip' })
  const off = await env.addChannel({ type: 1, models: 'switched-off', group: 'default' })
  await env.app.deps.routing.channels.setStatus([off], 2)
  await env.app.deps.options.set('GroupRatio', { default: 1, vip: 0.5, svip: 0.25 })
  await addUser(env.app, { username: 'plain' })
  await addUser(env.app, { username: 'gold', group: 'vip' })
  await addUser(env.app, { username: 'boss', role: Role.admin })
  user = await login(env.app, 'plain')
  vip = await login(env.app, 'gold')
  admin = await login(env.app, 'boss')
})
afterAll(() => env.stop())

const get = (path: string, cookie?: string) => call(env.app, 'GET', path, undefined, cookie ? { cookie } : {})

test('GET /api/user/models: the enabled models of the user’s own group, sorted, once each', async () => {
  const res = await get('/api/user/models', user)
  expect(res.status).toBe(200)
  expect(res.body).toEqual({ success: true, message: '', data: ['claude-sonnet-4-5', 'gpt-4o', 'gpt-4o-mini'] })
  expect((await get('/api/user/models', vip)).body.data).toEqual(['claude-sonnet-4-5', 'gpt-4o', 'vip-only'])
})

test('GET /api/user/self/groups: a user gets their own group with its ratio', async () => {
  const res = await get('/api/user/self/groups', vip)
  expect(res.status).toBe(200)
  expect(res.body).toEqual({ success: true, message: '', data: { vip: { ratio: 0.5, desc: 'vip (your group)' } } })
})

test('an admin gets every known group: GroupRatio’s and the channels’', async () => {
  const res = await get('/api/user/self/groups', admin)
  expect(res.body.data).toEqual({
    default: { ratio: 1, desc: 'default (your group)' },
    svip: { ratio: 0.25, desc: 'svip' },
    vip: { ratio: 0.5, desc: 'vip' },
  })
})

test('anonymous callers get 401 on both', async () => {
  for (const path of ['/api/user/models', '/api/user/self/groups']) {
    const res = await get(path)
    expect(res.status).toBe(401)
    expect(res.body.success).toBe(false)
  }
})
