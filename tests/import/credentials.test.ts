/**
 * What the import needs from login and the username rule: new-api's bcrypt hashes verify and become argon2id
 * on the first login; any username new-api allowed (CJK, up to 20 characters) is a valid Tollgate username.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { isValidUsername, needsRehash, Username } from '../../src/modules/users/credentials'
import { Role } from '../../src/db/repos/user-roles'
import { as, login } from '../helpers/accounts'
import { call, startTestApp, type TestApp } from '../helpers/test-app'
import { goBcrypt } from './fixtures/rows'
import { TypeCompiler } from '@sinclair/typebox/compiler'

let app: TestApp
beforeAll(async () => (app = await startTestApp()))
afterAll(() => app.stop())

describe('a bcrypt password from new-api', () => {
  for (const prefix of ['$2a$', '$2b$', '$2y$']) {
    test(`${prefix}: logs in, is rehashed to argon2id once, and the session it started stays valid`, async () => {
      const username = `bc${prefix.slice(2, 3)}`
      const hash = (await goBcrypt('old-password-1')).replace(/^\$2a\$/, prefix)
      const user = await app.deps.repos.users.insert({ username, password: hash })
      const res = await call(app, 'POST', '/api/user/login', { username, password: 'old-password-1' })
      expect(res.status).toBe(200)
      const stored = (await app.deps.repos.users.findById(user.id))!
      expect(stored.password).toStartWith('$argon2id$')
      expect(stored.sessionVersion).toBe(user.sessionVersion) // not a password change: no session revoked
      const cookie = res.headers.getSetCookie()[0]!.split(';')[0]!
      expect((await call(app, 'GET', '/api/user/self', undefined, as(cookie))).status).toBe(200)
      // the new hash takes the same password, and only it
      await login(app, username, 'old-password-1')
      expect((await app.deps.repos.users.findById(user.id))!.password).toBe(stored.password)
      expect((await call(app, 'POST', '/api/user/login', { username, password: 'wrong-password-1' })).status).toBe(401)
    })
  }

  test('a wrong password against a bcrypt hash fails and leaves the hash as it was', async () => {
    const hash = await goBcrypt('old-password-2')
    const user = await app.deps.repos.users.insert({ username: 'bcwrong', password: hash })
    expect((await call(app, 'POST', '/api/user/login', { username: 'bcwrong', password: 'not-the-password' })).status).toBe(401)
    expect((await app.deps.repos.users.findById(user.id))!.password).toBe(hash)
  })

  test('needsRehash: everything but argon2id', () => {
    expect(needsRehash('$2a$10$abc')).toBe(true)
    expect(needsRehash('$argon2i$v=19$m=1,t=1,p=1$x$y')).toBe(true)
    expect(needsRehash('$argon2id$v=19$m=65536,t=2,p=1$x$y')).toBe(false)
  })
})

describe('the username rule', () => {
  const check = TypeCompiler.Compile(Username)
  test('any script, 1–20 characters counted as characters, no whitespace or control characters', () => {
    for (const ok of ['alice', '张三', '李小龙_2024', 'user@example.com', 'Ünïcødé', 'ユーザー', '사용자', 'a'.repeat(20), '😀'.repeat(20), 'x.y-z']) {
      expect([ok, isValidUsername(ok), check.Check(ok)]).toEqual([ok, true, true])
    }
    for (const bad of ['', 'bad name', ' alice', 'alice ', 'tab\there', 'new\nline', 'a'.repeat(21), '张'.repeat(21), '😀'.repeat(21), 'nul\u0000', 'zero\u200bwidth', 'rtl\u202eflip', '全角\u3000空格']) {
      expect([bad, isValidUsername(bad), check.Check(bad)]).toEqual([bad, false, false])
    }
  })

  test('registration, setup-style admin creation and login accept a CJK name', async () => {
    await app.deps.options.set('RegisterEnabled', true)
    const reg = await call(app, 'POST', '/api/user/register', { username: '王五', password: 'wang-password-1' })
    expect(reg.status).toBe(200)
    await login(app, '王五', 'wang-password-1')
    const root = await login(app, 'root')
    const created = await call(app, 'POST', '/api/user/', { username: '赵六😀', password: 'zhao-password-1', role: Role.user }, as(root))
    expect(created.status).toBe(200)
    expect((await call(app, 'POST', '/api/user/register', { username: 'bad name', password: 'long-enough-1' })).status).toBe(400)
  })
})
