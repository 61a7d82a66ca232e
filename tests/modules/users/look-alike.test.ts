import { afterAll, beforeAll, expect, test } from 'bun:test'
import { usernameSkeleton } from '../../../src/modules/users/username-skeleton'
import { addUser, as, login } from '../../helpers/accounts'
import { call, startTestApp, type TestApp } from '../../helpers/test-app'

let app: TestApp
let root: string
beforeAll(async () => {
  app = await startTestApp({ TRUST_PROXY: 'true' })
  await app.deps.options.set('RegisterEnabled', true)
  root = await login(app)
})
afterAll(() => app.stop())

const register = (username: string, ip = '10.7.0.1') => call(app, 'POST', '/api/user/register', { username, password: 'look-alike-password' }, { 'x-forwarded-for': ip })

test('names that read alike share a skeleton: case, Cyrillic and Greek letters, fullwidth forms, l/1, o/0', () => {
  for (const name of ['root', 'Root', 'ROOT', 'r\u043e\u043et', 'ｒｏｏｔ', 'r\u03bf\u03bft']) expect(usernameSkeleton(name)).toBe('root')
  expect(usernameSkeleton('paypal')).toBe(usernameSkeleton('\u0440\u0430\u0443\u0440\u0430l'))
  expect(usernameSkeleton('bill1')).toBe(usernameSkeleton('bi11l'))
  expect(usernameSkeleton('r00t')).toBe('root')
  expect(usernameSkeleton('ERIN')).toBe(usernameSkeleton('erin'))
  expect(usernameSkeleton('alice')).not.toBe(usernameSkeleton('alicf'))
  expect(usernameSkeleton('张三')).toBe('张三')
})

test('sign-ups that read like root are refused with 409 and a stable code; nothing is written', async () => {
  for (const [i, name] of ['Root', 'ROOT', 'r\u043e\u043et', 'ｒｏｏｔ'].entries()) {
    const res = await register(name, `10.7.1.${i}`)
    expect(res.status).toBe(409)
    expect(res.body).toEqual({ success: false, message: `the username "${name}" reads like one that is taken: choose another`, data: { code: 'username_confusable' } })
    expect(await app.deps.repos.users.findByUsername(name)).toBeUndefined()
  }
  expect((await register('rootless', '10.7.2.1')).status).toBe(200)
})

test('an admin cannot create or rename a user into a look-alike; a user keeps their own name', async () => {
  const created = await call(app, 'POST', '/api/user/', { username: 'Rootless', password: 'look-alike-password' }, as(root))
  expect(created.status).toBe(409)
  expect(created.body.data).toEqual({ code: 'username_confusable' })
  const bob = await addUser(app, { username: 'bob' })
  const renamed = await call(app, 'PUT', '/api/user/', { id: bob.id, username: 'r\u043e\u043et' }, as(root))
  expect(renamed.status).toBe(409)
  expect((await call(app, 'PUT', '/api/user/', { id: bob.id, username: 'bob', display_name: 'Bob' }, as(root))).status).toBe(200)
  expect((await call(app, 'PUT', '/api/user/', { id: bob.id, username: 'Bob' }, as(root))).status).toBe(200)
})

test('look-alikes that raced past the check meet the unique key', async () => {
  const results = await Promise.all(['carol', 'Carol', 'CAROL', 'c\u0430rol'].map((name, i) => register(name, `10.7.3.${i}`)))
  expect(results.filter((r) => r.status === 200)).toHaveLength(1)
  expect(results.filter((r) => r.status === 409)).toHaveLength(3)
})

test('names from before the rule get their keys at start; of two that read alike, the older keeps the key', async () => {
  const { db } = app
  await addUser(app, { username: 'dave' })
  await addUser(app, { username: 'frank' })
  db.$client.run("UPDATE users SET username_key = NULL WHERE username IN ('dave', 'frank')")
  db.$client.run("INSERT INTO users (username, password) VALUES ('DAVE', 'x')") // as an import leaves it: no key
  expect(await app.deps.repos.users.fillUsernameKeys()).toBe(2)
  const keys = db.$client.query("SELECT username, username_key AS k FROM users WHERE username IN ('dave', 'DAVE', 'frank') ORDER BY id").all()
  expect(keys).toEqual([{ username: 'dave', k: 'dave' }, { username: 'frank', k: 'frank' }, { username: 'DAVE', k: null }])
  expect(await app.deps.repos.users.fillUsernameKeys()).toBe(0)
  expect((await register('Dave', '10.7.4.1')).status).toBe(409)
})
