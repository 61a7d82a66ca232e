/**
 * The whole gateway on PostgreSQL, through HTTP: what PostgreSQL refuses where SQLite did not must still be the
 * client's 400 or an empty answer, never a 500 (a NUL character in text, an id past int4, a LIKE escape).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { addUser, as, login } from '../../helpers/accounts'
import { hasPostgres, NO_POSTGRES, sharedPostgres } from '../../helpers/pg-server'
import { call, startTestApp, type TestApp } from '../../helpers/test-app'

const describePg = hasPostgres() ? describe : describe.skip
if (!hasPostgres()) console.warn(`tests/db/postgres/app: ${NO_POSTGRES}`)

describePg('the gateway on PostgreSQL', () => {
  let app: TestApp
  let root: string
  beforeAll(async () => {
    app = await startTestApp({ DATABASE_URL: await (await sharedPostgres()).createDatabase() })
    root = await login(app)
  }, 60_000)
  afterAll(() => app.stop())

  test('it runs on PostgreSQL: the repositories are the postgres ones', () => {
    expect(app.deps.repos.dialect).toBe('postgres')
    expect(() => app.db).toThrow(/PostgreSQL/)
  })

  test('a NUL character in a text field is a 400, and nothing is stored', async () => {
    await addUser(app, { username: 'nul-user' })
    const cookie = await login(app, 'nul-user')
    const res = await call(app, 'PUT', '/api/user/self', { display_name: 'a\u0000b' }, as(cookie))
    expect(res.status).toBe(400)
    expect(res.body).toMatchObject({ success: false })
    const self = await call(app, 'GET', '/api/user/self', undefined, as(cookie))
    expect(self.body.data.display_name).toBe('')
  })

  test('searches ignore ASCII case as on SQLite; a backslash or an id past int4 is just a keyword', async () => {
    await addUser(app, { username: 'MixedCase_Person' })
    const found = await call(app, 'GET', '/api/user/search?keyword=mixedcase', undefined, as(root))
    expect(found.status).toBe(200)
    expect(found.body.data.items.map((u: { username: string }) => u.username)).toEqual(['MixedCase_Person'])
    // a backslash is an ordinary character, as in SQLite's LIKE (PostgreSQL's default escape would make `back\%` mean `back%`)
    await addUser(app, { username: 'back\\slash' })
    const slash = await call(app, 'GET', `/api/user/search?keyword=${encodeURIComponent('back\\')}`, undefined, as(root))
    expect(slash.body.data.items.map((u: { username: string }) => u.username)).toEqual(['back\\slash'])
    for (const keyword of ['x\\', '9999999999999']) {
      const res = await call(app, 'GET', `/api/user/search?keyword=${encodeURIComponent(keyword)}`, undefined, as(root))
      expect([keyword, res.status, res.body.data?.total]).toEqual([keyword, 200, 0])
    }
    const far = await call(app, 'GET', '/api/user/9007199254740991', undefined, as(root))
    expect(far.status).toBe(404)
  })
})
