/**
 * Custom sign-in providers defined as data by root (new-api's /api/custom-oauth-provider): CRUD with the client
 * secret sealed and never shown, the provider on /api/status, a full sign-in through a fake provider (state,
 * PKCE, the client in the body for auth_style 1, claims read at dotted paths), bound as custom:<id>; a
 * provider's endpoints go through the outbound guard; deleting one removes its bindings.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { addUser, as, login } from '../../helpers/accounts'
import { api, Jar, signIn } from '../../helpers/fake-oauth/flow'
import { startFakeOAuth, type FakeOAuth } from '../../helpers/fake-oauth/plain-oauth'
import { call, startTestApp, type TestApp } from '../../helpers/test-app'

interface Account {
  id: number
  login: string
  nick: string
  mail: string
  verified: boolean
}
const CLIENT = { id: 'acme-client', secret: 'acme-client-secret-0123456789' }
let fake: FakeOAuth<Account>
let app: TestApp
let root: Record<string, string>
let providerId = 0

const body = (overrides: Record<string, unknown> = {}) => ({
  name: 'Acme SSO',
  slug: 'acme',
  enabled: true,
  client_id: CLIENT.id,
  client_secret: CLIENT.secret,
  authorization_endpoint: `${fake.url}/authorize`,
  token_endpoint: `${fake.url}/token`,
  user_info_endpoint: `${fake.url}/me`,
  scopes: 'profile email',
  user_id_field: 'data.user.id',
  username_field: 'data.user.login',
  display_name_field: 'data.user.nick',
  email_field: 'data.user.mail',
  auth_style: 1,
  ...overrides,
})

beforeAll(async () => {
  fake = startFakeOAuth<Account>(
    {
      authorizePath: '/authorize',
      tokenPath: '/token',
      userPath: '/me',
      user: (a) => ({ data: { user: { id: a.id, login: a.login, nick: a.nick, mail: a.mail } }, email_verified: a.verified }),
      unauthorized: { error: 'unauthorized' },
    },
    CLIENT,
    { id: 77, login: 'zed', nick: 'Zed Z', mail: 'zed@example.com', verified: true },
  )
  app = await startTestApp()
  root = as(await login(app))
  expect((await call(app, 'PUT', '/api/option/', { key: 'RegisterEnabled', value: true }, root)).status).toBe(200)
})
afterAll(async () => {
  await app.stop()
  fake.stop()
})

test('root creates a provider: the secret is sealed in the database and never in an answer', async () => {
  const created = await call(app, 'POST', '/api/custom-oauth-provider/', body(), root)
  expect(created.status).toBe(200)
  providerId = created.body.data.id
  expect(created.body.data).toMatchObject({ name: 'Acme SSO', slug: 'acme', kind: 'oauth_code', client_secret_configured: true, user_id_field: 'data.user.id', auth_style: 1 })
  expect(JSON.stringify(created.body)).not.toContain(CLIENT.secret)
  const stored = app.db.$client.query('SELECT client_secret FROM custom_oauth_providers WHERE id = ?').get(providerId) as { client_secret: string }
  expect(stored.client_secret).toStartWith('v1:')
  const listed = await call(app, 'GET', '/api/custom-oauth-provider/', undefined, root)
  expect(listed.body.data.map((p: { slug: string }) => p.slug)).toEqual(['acme'])
  expect(JSON.stringify(listed.body)).not.toContain(CLIENT.secret)
  // an update without a secret keeps the stored one
  const updated = await call(app, 'PUT', `/api/custom-oauth-provider/${providerId}`, body({ client_secret: undefined, name: 'Acme' }), root)
  expect(updated.body.data).toMatchObject({ name: 'Acme', client_secret_configured: true })
  expect((app.db.$client.query('SELECT client_secret FROM custom_oauth_providers WHERE id = ?').get(providerId) as { client_secret: string }).client_secret).toBe(stored.client_secret)
})

test('bad definitions are refused with a code: a built-in slug, a taken slug, a slug with capitals, a non-http URL, another kind; only root may', async () => {
  const reserved = await call(app, 'POST', '/api/custom-oauth-provider/', body({ slug: 'github' }), root)
  expect([reserved.status, reserved.body.data?.code]).toEqual([400, 'custom_oauth_slug_reserved'])
  const taken = await call(app, 'POST', '/api/custom-oauth-provider/', body(), root)
  expect([taken.status, taken.body.data?.code]).toEqual([409, 'custom_oauth_slug_taken'])
  for (const bad of [{ slug: 'Acme' }, { token_endpoint: 'file:///etc/passwd' }, { kind: 'trusted_header' }, { user_id_field: 'a b' }]) {
    const res = await call(app, 'POST', '/api/custom-oauth-provider/', body({ ...bad, slug: bad.slug ?? 'other' }), root)
    expect(res.status).toBe(400)
    expect(res.body.success).toBe(false)
  }
  const user = as(await login(app, (await addUser(app, { username: 'plain' })).username))
  expect((await call(app, 'GET', '/api/custom-oauth-provider/', undefined, user)).status).toBe(403)
  expect((await call(app, 'POST', '/api/custom-oauth-provider/', body({ slug: 'mine' }), user)).status).toBe(403)
})

test('/api/status lists the enabled provider for the login page, without its secret', async () => {
  const { body: status } = await call(app, 'GET', '/api/status')
  expect(status.data.custom_oauth_providers).toEqual([{ id: providerId, name: 'Acme', slug: 'acme', icon: '', client_id: CLIENT.id }])
})

test('sign-in through it: state and PKCE, the client in the body, claims at their paths, bound as custom:<id>', async () => {
  const jar = new Jar()
  const start = await api(app, jar, '/api/oauth/state?provider=acme')
  const url = new URL(start.body.data.authorize_url)
  expect(`${url.origin}${url.pathname}`).toBe(`${fake.url}/authorize`)
  expect(Object.fromEntries(url.searchParams)).toMatchObject({ scope: 'profile email', redirect_uri: `${app.url}/oauth/acme`, code_challenge_method: 'S256', state: start.body.data.state })

  const first = await signIn(app, new Jar(), 'acme')
  expect(first.status).toBe(200)
  expect(first.body.data).toMatchObject({ action: 'register', username: 'zed', display_name: 'Zed Z' })
  const row = app.db.$client.query('SELECT u.email, b.provider, b.external_id FROM users u JOIN user_bindings b ON b.user_id = u.id WHERE u.id = ?').get(first.body.data.id)
  expect(row).toEqual({ email: 'zed@example.com', provider: `custom:${providerId}`, external_id: '77' })
  expect(fake.tokenRequests.at(-1)).toMatchObject({ auth: 'post', client_id: CLIENT.id, client_secret: CLIENT.secret, redirect_uri: `${app.url}/oauth/acme` })
  const again = await signIn(app, new Jar(), 'acme')
  expect(again.body.data).toMatchObject({ action: 'login', id: first.body.data.id })
  // the state of one provider does not finish another's flow
  const jar2 = new Jar()
  const { query } = await (await import('../../helpers/fake-oauth/flow')).authorize(app, jar2, 'acme')
  const other = await api(app, jar2, `/api/oauth/github${query}`)
  expect([other.status, other.body.data.code]).toEqual([400, 'oauth_state_invalid'])
})

test('an account without the id claim is refused; a switched-off provider is refused before the provider is asked', async () => {
  fake.account = { id: 0, login: 'noid', nick: '', mail: '', verified: false }
  await call(app, 'PUT', `/api/custom-oauth-provider/${providerId}`, body({ client_secret: undefined, user_id_field: 'data.user.uuid' }), root)
  const noId = await signIn(app, new Jar(), 'acme')
  expect([noId.status, noId.body.data.code]).toEqual([502, 'oauth_failed'])
  await call(app, 'PUT', `/api/custom-oauth-provider/${providerId}`, body({ client_secret: undefined, enabled: false }), root)
  const before = fake.tokenRequests.length
  const off = await api(app, new Jar(), '/api/oauth/state?provider=acme')
  expect([off.status, off.body.data.code]).toEqual([403, 'oauth_disabled'])
  expect(fake.tokenRequests.length).toBe(before)
  const unknown = await api(app, new Jar(), '/api/oauth/state?provider=nobody')
  expect([unknown.status, unknown.body.data.code]).toEqual([404, 'oauth_unknown_provider'])
  fake.account = { id: 77, login: 'zed', nick: 'Zed Z', mail: 'zed@example.com', verified: true }
  await call(app, 'PUT', `/api/custom-oauth-provider/${providerId}`, body({ client_secret: undefined }), root)
})

test('its endpoints go through the outbound guard: a metadata address is never dialled', async () => {
  const res = await call(app, 'POST', '/api/custom-oauth-provider/', body({ slug: 'metadata', token_endpoint: 'http://169.254.169.254/latest/meta-data/token' }), root)
  expect(res.status).toBe(200)
  const signed = await signIn(app, new Jar(), 'metadata')
  expect([signed.status, signed.body.data.code]).toEqual([502, 'oauth_provider_unreachable'])
  expect(signed.body.message).toContain('169.254.169.254')
  await call(app, 'DELETE', `/api/custom-oauth-provider/${res.body.data.id}`, undefined, root)
})

test('deleting a provider deletes its bindings; its sign-in is then unknown', async () => {
  expect((await call(app, 'DELETE', `/api/custom-oauth-provider/${providerId}`, undefined, root)).status).toBe(200)
  expect(app.db.$client.query('SELECT * FROM user_bindings WHERE provider = ?').all(`custom:${providerId}`)).toEqual([])
  expect((await call(app, 'GET', `/api/custom-oauth-provider/${providerId}`, undefined, root)).status).toBe(404)
  expect((await api(app, new Jar(), '/api/oauth/acme')).status).toBe(404)
})
