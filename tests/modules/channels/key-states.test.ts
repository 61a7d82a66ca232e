import { afterAll, beforeAll, expect, spyOn, test } from 'bun:test'
import { startRelayEnv, type RelayEnv } from '../../helpers/relay-env'
import { call } from '../../helpers/test-app'
import { userHeaders } from './helpers'

/** GET /api/channel/:id/keys: each key of a pool by position and hint, and whether the relay skips it. */
let env: RelayEnv
let admin: Record<string, string>
beforeAll(async () => {
  env = await startRelayEnv()
  admin = await userHeaders(env.app)
})
afterAll(() => env.stop())

const FIRST = 'sk-pool-first-key-aaaaaaaa1111'
const SECOND = 'sk-pool-second-key-bbbbbbbb2222'

test('a key the test found revoked is listed out of the rotation; no key text leaves the server', async () => {
  env.upstream.setKeys([FIRST])
  const id = await env.addChannel({ type: 1, name: 'pool', models: 'pool-model', autoBan: 1, keyText: `${FIRST}\n${SECOND}` })
  const before = await call(env.app, 'GET', `/api/channel/${id}/keys`, undefined, admin)
  expect(before.status).toBe(200)
  expect(before.body.data).toEqual([
    { position: 1, hint: '…1111', out_of_rotation: false },
    { position: 2, hint: '…2222', out_of_rotation: false },
  ])
  const quiet = spyOn(console, 'warn').mockImplementation(() => {})
  await call(env.app, 'GET', `/api/channel/test/${id}`, undefined, admin)
  quiet.mockRestore()
  const after = await call(env.app, 'GET', `/api/channel/${id}/keys`, undefined, admin)
  expect(after.body.data).toEqual([
    { position: 1, hint: '…1111', out_of_rotation: false },
    { position: 2, hint: '…2222', out_of_rotation: true },
  ])
  expect(JSON.stringify(after.body)).not.toContain('bbbbbbbb')
})

test('unknown channel 404, users 403', async () => {
  expect((await call(env.app, 'GET', '/api/channel/999999/keys', undefined, admin)).status).toBe(404)
  expect((await call(env.app, 'GET', '/api/channel/1/keys', undefined, await userHeaders(env.app, 1))).status).toBe(403)
})
