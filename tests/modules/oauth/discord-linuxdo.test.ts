/**
 * Discord and LinuxDO sign-in through fakes that follow each provider's documented endpoints and payloads
 * (tests/helpers/fake-oauth/discord.ts, linuxdo.ts), reached through PROVIDER_ENDPOINTS: the authorization URL on
 * the provider's own path, the client authenticated with HTTP Basic, PKCE and the redirect URI checked by the
 * provider, the profile mapped (Discord's snowflake and `verified`; LinuxDO's id, trust level and state).
 */
import { afterAll, beforeAll, beforeEach, expect, test } from 'bun:test'
import { as, login } from '../../helpers/accounts'
import { startFakeDiscord, type FakeDiscord } from '../../helpers/fake-oauth/discord'
import { startFakeLinuxDO, type FakeLinuxDO } from '../../helpers/fake-oauth/linuxdo'
import { api, Jar, signIn } from '../../helpers/fake-oauth/flow'
import { call, startTestApp, type TestApp } from '../../helpers/test-app'

const DISCORD = { id: '1234567890', secret: 'discord-client-secret-0123456789' }
const LINUXDO = { id: 'linuxdo-client', secret: 'linuxdo-client-secret-0123456789' }
let discord: FakeDiscord
let linuxdo: FakeLinuxDO
let app: TestApp
let root: Record<string, string>

beforeAll(async () => {
  discord = startFakeDiscord(DISCORD, { id: '80351110224678912', username: 'nelly', global_name: 'Nelly', email: 'nelly@example.com', verified: true })
  linuxdo = startFakeLinuxDO(LINUXDO, { id: 4242, username: 'ldo_user', name: 'L Do', email: 'ldo@example.com', trust_level: 2 })
  app = await startTestApp({ PROVIDER_ENDPOINTS: JSON.stringify({ discord: discord.url, linuxdo: linuxdo.url }) })
  root = as(await login(app))
  const options = {
    RegisterEnabled: true,
    'discord.enabled': true,
    'discord.client_id': DISCORD.id,
    'discord.client_secret': DISCORD.secret,
    LinuxDOOAuthEnabled: true,
    LinuxDOClientId: LINUXDO.id,
    LinuxDOClientSecret: LINUXDO.secret,
    LinuxDOMinimumTrustLevel: 1,
  }
  for (const [key, value] of Object.entries(options)) expect((await call(app, 'PUT', '/api/option/', { key, value }, root)).status).toBe(200)
})
afterAll(async () => {
  await app.stop()
  discord.stop()
  linuxdo.stop()
})
beforeEach(() => {
  linuxdo.account = { id: 4242, username: 'ldo_user', name: 'L Do', email: 'ldo@example.com', trust_level: 2 }
})

const userRow = (id: number) => app.db.$client.query('SELECT username, display_name, password, email FROM users WHERE id = ?').get(id)
const binding = (provider: string, externalId: string) => app.db.$client.query('SELECT user_id FROM user_bindings WHERE provider = ? AND external_id = ?').get(provider, externalId) as { user_id: number } | null

test('/api/status names both providers and their client ids, never a secret', async () => {
  const { body } = await call(app, 'GET', '/api/status')
  expect(body.data).toMatchObject({ discord_oauth: true, discord_client_id: DISCORD.id, linuxdo_oauth: true, linuxdo_client_id: LINUXDO.id, linuxdo_minimum_trust_level: 1 })
  expect(JSON.stringify(body)).not.toContain(DISCORD.secret)
  expect(JSON.stringify(body)).not.toContain(LINUXDO.secret)
})

test('Discord: the authorization URL is Discord’s, with scopes identify and email, state and PKCE', async () => {
  const start = await api(app, new Jar(), '/api/oauth/state?provider=discord')
  const url = new URL(start.body.data.authorize_url)
  expect(`${url.origin}${url.pathname}`).toBe(`${discord.url}/oauth2/authorize`)
  expect(Object.fromEntries(url.searchParams)).toMatchObject({ client_id: DISCORD.id, response_type: 'code', scope: 'identify email', redirect_uri: `${app.url}/oauth/discord`, code_challenge_method: 'S256' })
})

test('Discord: a first sign-in signs up (snowflake bound, verified e-mail kept), the next signs in; the client used HTTP Basic', async () => {
  const first = await signIn(app, new Jar(), 'discord')
  expect(first.status).toBe(200)
  expect(first.body.data).toMatchObject({ action: 'register', username: 'nelly', display_name: 'Nelly' })
  expect(userRow(first.body.data.id)).toEqual({ username: 'nelly', display_name: 'Nelly', password: '', email: 'nelly@example.com' })
  expect(binding('discord', '80351110224678912')).toEqual({ user_id: first.body.data.id })
  const request = discord.tokenRequests.at(-1)!
  expect(request).toMatchObject({ auth: 'basic', grant_type: 'authorization_code', redirect_uri: `${app.url}/oauth/discord` })
  expect(request.client_secret).toBeUndefined()
  expect(request.code_verifier).toMatch(/^[\w-]{43,128}$/)

  const again = await signIn(app, new Jar(), 'discord')
  expect(again.body.data).toMatchObject({ action: 'login', id: first.body.data.id })
})

test('Discord: an unverified address is not stored on the new user', async () => {
  discord.account = { id: '80351110224678913', username: 'otto', email: 'otto@example.com', verified: false }
  const res = await signIn(app, new Jar(), 'discord')
  expect(res.body.data.action).toBe('register')
  expect((userRow(res.body.data.id) as { email: string }).email).toBe('')
})

test('LinuxDO: signs up with the numeric id; its e-mail is never stored (LinuxDO does not say it is verified)', async () => {
  const res = await signIn(app, new Jar(), 'linuxdo')
  expect(res.status).toBe(200)
  expect(res.body.data).toMatchObject({ action: 'register', username: 'ldo_user', display_name: 'L Do' })
  expect((userRow(res.body.data.id) as { email: string }).email).toBe('')
  expect(binding('linuxdo', '4242')).toEqual({ user_id: res.body.data.id })
  expect(linuxdo.tokenRequests.at(-1)).toMatchObject({ auth: 'basic', redirect_uri: `${app.url}/oauth/linuxdo` })
})

test('LinuxDO: a trust level below LinuxDOMinimumTrustLevel, an inactive and a silenced account are refused, nothing written', async () => {
  const before = (app.db.$client.query('SELECT count(*) AS n FROM users').get() as { n: number }).n
  for (const account of [
    { id: 5001, username: 'newbie', trust_level: 0 },
    { id: 5002, username: 'sleeper', trust_level: 3, active: false },
    { id: 5003, username: 'muted', trust_level: 3, silenced: true },
  ]) {
    linuxdo.account = account
    const res = await signIn(app, new Jar(), 'linuxdo')
    expect([res.status, res.body.data.code]).toEqual([403, 'oauth_account_refused'])
    expect(binding('linuxdo', String(account.id))).toBeNull()
  }
  expect((app.db.$client.query('SELECT count(*) AS n FROM users').get() as { n: number }).n).toBe(before)
})

test('a provider that refuses the code (a wrong client secret) is a 400 with a code, and nobody is signed in', async () => {
  expect((await call(app, 'PUT', '/api/option/', { key: 'discord.client_secret', value: 'not-the-secret' }, root)).status).toBe(200)
  try {
    const jar = new Jar()
    const res = await signIn(app, jar, 'discord')
    expect(res.status).toBe(400)
    expect(res.body.data.code).toMatch(/^oauth_(code_refused|failed)$/)
    expect((await api(app, jar, '/api/user/self')).status).toBe(401)
  } finally {
    await call(app, 'PUT', '/api/option/', { key: 'discord.client_secret', value: DISCORD.secret }, root)
  }
})
