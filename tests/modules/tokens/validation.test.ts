import { afterAll, beforeAll, expect, test } from 'bun:test'
import { Role } from '../../../src/db/repos/user-roles'
import { call, startTestApp, type TestApp } from '../../helpers/test-app'
import { makeUser, type TestUser } from './users'

let app: TestApp
let alice: TestUser
let tokenId: number
beforeAll(async () => {
  app = await startTestApp()
  alice = await makeUser(app, 'alice', { group: 'default' })
  tokenId = (await call(app, 'POST', '/api/token/', { name: 'base' }, alice.headers)).body.data.id
})
afterAll(() => app.stop())

const count = async () => (await app.deps.repos.tokens.listOwned(alice.user.id, 0, 1000)).total
const now = () => Math.floor(Date.now() / 1000)

/** The message names the field: `field "x": …` from the schema, or `x: …` / `x must …` from the service. */
const namesField = (field: string) => new RegExp(`(^|")${field.replaceAll('.', '\\.')}("|:| must)`)

async function expect400(method: string, path: string, body: unknown, field: string) {
  const before = await count()
  const res = await call(app, method, path, body, alice.headers)
  expect(res.status).toBe(400)
  expect(res.body.success).toBe(false)
  expect(res.body.data).toMatchObject({ code: 'invalid_request' })
  expect(res.body.message).toMatch(namesField(field))
  expect(await count()).toBe(before)
  return res
}

test.each([
  ['name too long', { name: 'x'.repeat(51) }, 'name'],
  ['negative remain_quota', { remain_quota: -1 }, 'remain_quota'],
  ['fractional remain_quota', { remain_quota: 1.5 }, 'remain_quota'],
  ['non-numeric remain_quota', { remain_quota: 'ten' }, 'remain_quota'],
  ['past expired_time', { expired_time: 1000 }, 'expired_time'],
  ['expired_time now', { expired_time: 0 }, 'expired_time'],
  ['expired_time in milliseconds', { expired_time: Date.now() + 86_400_000 }, 'expired_time'],
  ['bad IP', { allow_ips: '10.0.0.1\nnot-an-ip' }, 'allow_ips'],
  ['IPv4 out of range', { allow_ips: '256.1.1.1' }, 'allow_ips'],
  ['CIDR prefix too long', { allow_ips: '10.0.0.0/33' }, 'allow_ips'],
  ['IPv6 prefix too long', { allow_ips: '2001:db8::/129' }, 'allow_ips'],
  ['IPv6 zone id', { allow_ips: 'fe80::1%eth0' }, 'allow_ips'],
  ['model name with spaces', { model_limits: 'gpt-4o,bad model' }, 'model_limits'],
  ['someone else’s group', { group: 'vip' }, 'group'],
  ['unlimited_quota not boolean', { unlimited_quota: 'yes' }, 'unlimited_quota'],
])('create refuses %s with a 400 naming the field', async (_, body, field) => {
  const res = await expect400('POST', '/api/token/', body, field)
  expect(res.body.message).not.toContain('internal')
})

test('the bad IP entry is named in the message', async () => {
  const res = await expect400('POST', '/api/token/', { allow_ips: '1.2.3.4, 10.0.0.0/8, 300.1.1.1' }, 'allow_ips')
  expect(res.body.message).toContain('"300.1.1.1"')
})

test('valid values are accepted: future expiry, IPv4/IPv6 CIDRs, own group', async () => {
  const expiry = now() + 3600
  const res = await call(
    app,
    'POST',
    '/api/token/',
    { name: 'x'.repeat(50), expired_time: expiry, allow_ips: '127.0.0.1,::1\n10.0.0.0/8\n2001:db8::/32', group: 'default', remain_quota: 0 },
    alice.headers,
  )
  expect(res.status).toBe(200)
  expect(res.body.data).toMatchObject({ expired_time: expiry, group: 'default', allow_ips: '127.0.0.1\n::1\n10.0.0.0/8\n2001:db8::/32' })
})

test('admins may put a token in any group', async () => {
  const admin = await makeUser(app, 'admin', { role: Role.admin })
  const res = await call(app, 'POST', '/api/token/', { name: 'vip', group: 'vip' }, admin.headers)
  expect(res.status).toBe(200)
  expect(res.body.data.group).toBe('vip')
})

test.each([
  ['non-numeric', '/api/token/abc'],
  ['zero', '/api/token/0'],
  ['negative', '/api/token/-3'],
  ['fractional', '/api/token/1.5'],
  ['huge', '/api/token/99999999999999999999'],
])('a %s :id is a 400 on GET and DELETE', async (_, path) => {
  for (const method of ['GET', 'DELETE']) {
    const res = await call(app, method, path, undefined, alice.headers)
    expect(res.status).toBe(400)
    expect(res.body.success).toBe(false)
    expect(res.body.message).toMatch(namesField('id'))
  }
})

test('edits are validated the same way and change nothing when refused', async () => {
  const before = await app.deps.repos.tokens.findById(tokenId)
  await expect400('PUT', '/api/token/', { id: tokenId, allow_ips: '::zz' }, 'allow_ips')
  await expect400('PUT', '/api/token/', { id: tokenId, expired_time: now() - 10 }, 'expired_time')
  await expect400('PUT', '/api/token/', { id: tokenId, name: 'y'.repeat(51) }, 'name')
  await expect400('PUT', '/api/token/', { name: 'no id' }, 'id')
  await expect400('PUT', '/api/token/', { id: 'one' }, 'id')
  await expect400('PUT', '/api/token/', { id: 0 }, 'id')
  await expect400('PUT', '/api/token/', { id: tokenId, status: 9 }, 'status')
  await expect400('PUT', '/api/token/?status_only=1', { id: tokenId }, 'status')
  expect(await app.deps.repos.tokens.findById(tokenId)).toEqual(before)
})

test('batch needs a non-empty list of ids', async () => {
  await expect400('POST', '/api/token/batch', { ids: [] }, 'ids')
  await expect400('POST', '/api/token/batch', { ids: ['a'] }, 'ids.0')
  await expect400('POST', '/api/token/batch', {}, 'ids')
})

test('malformed JSON is a 400, not a 500', async () => {
  const res = await call(app, 'POST', '/api/token/', '{"name":', { ...alice.headers, 'content-type': 'application/json' })
  expect(res.status).toBe(400)
  expect(res.body.success).toBe(false)
})
