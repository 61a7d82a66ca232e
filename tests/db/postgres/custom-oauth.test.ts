/** Custom sign-in providers on PostgreSQL: the same CRUD, the slug unique (409), deleting one takes its bindings. */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { addUser, as, login } from '../../helpers/accounts'
import { hasPostgres, NO_POSTGRES, sharedPostgres } from '../../helpers/pg-server'
import { call, startTestApp, type TestApp } from '../../helpers/test-app'

const describePg = hasPostgres() ? describe : describe.skip
if (!hasPostgres()) console.warn(`tests/db/postgres/custom-oauth: ${NO_POSTGRES}`)

describePg('custom OAuth providers on PostgreSQL', () => {
  let app: TestApp
  let root: Record<string, string>
  beforeAll(async () => {
    app = await startTestApp({ DATABASE_URL: await (await sharedPostgres()).createDatabase() })
    root = as(await login(app))
  }, 60_000)
  afterAll(() => app.stop())

  const body = { name: 'Corp', slug: 'corp', client_id: 'c', client_secret: 'corp-secret-0123456789', authorization_endpoint: 'https://sso.example/a', token_endpoint: 'https://sso.example/t', user_info_endpoint: 'https://sso.example/u', enabled: true }

  test('create, update keeping the secret, a taken slug, delete with its bindings', async () => {
    const created = await call(app, 'POST', '/api/custom-oauth-provider/', body, root)
    expect(created.status).toBe(200)
    const id = created.body.data.id as number
    expect(created.body.data).toMatchObject({ slug: 'corp', client_secret_configured: true, enabled: true })
    const updated = await call(app, 'PUT', `/api/custom-oauth-provider/${id}`, { ...body, client_secret: '', name: 'Corp SSO' }, root)
    expect(updated.body.data).toMatchObject({ name: 'Corp SSO', client_secret_configured: true })
    expect(updated.body.data.updated_at).toBeGreaterThanOrEqual(created.body.data.updated_at)
    const taken = await call(app, 'POST', '/api/custom-oauth-provider/', body, root)
    expect([taken.status, taken.body.data?.code]).toEqual([409, 'custom_oauth_slug_taken'])

    const user = await addUser(app, { username: 'pg-corp-user' })
    await app.deps.repos.bindings.bind(user.id, `custom:${id}`, 'ext-1')
    expect((await call(app, 'DELETE', `/api/custom-oauth-provider/${id}`, undefined, root)).status).toBe(200)
    expect(await app.deps.repos.bindings.listByUser(user.id)).toEqual([])
    expect((await call(app, 'GET', '/api/custom-oauth-provider/', undefined, root)).body.data).toEqual([])
  })
})
