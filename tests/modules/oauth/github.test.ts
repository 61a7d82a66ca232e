/**
 * Sign-in with GitHub through a fake that follows GitHub's documented web flow (tests/helpers/fake-oauth), reached
 * through PROVIDER_ENDPOINTS: sign-up then sign-in, the state tied to the browser and used once, PKCE and the
 * redirect URI checked by the provider, an id bound elsewhere refused, an unverified e-mail never joins accounts,
 * RegisterEnabled followed, the last way in kept, the client secret sealed and masked.
 */
import { afterAll, beforeAll, beforeEach, expect, test } from 'bun:test'
import { SESSION_COOKIE } from '../../../src/plugins/session'
import { addUser, as, login } from '../../helpers/accounts'
import { startFakeGitHub, type FakeGitHub } from '../../helpers/fake-oauth/github'
import { api, authorize, Jar, signIn } from '../../helpers/fake-oauth/flow'
import { call, startTestApp, type TestApp } from '../../helpers/test-app'

const CLIENT = { id: 'Iv1.tollgate-test', secret: 'github-client-secret-0123456789' }
let github: FakeGitHub
let app: TestApp
let root: Record<string, string>

const setOption = (key: string, value: unknown) => call(app, 'PUT', '/api/option/', { key, value }, root)

beforeAll(async () => {
  github = startFakeGitHub(CLIENT, { id: 1001, login: 'octo', name: 'Octo Cat', email: 'octo@example.com' })
  app = await startTestApp({ PROVIDER_ENDPOINTS: JSON.stringify({ github: github.url }) })
  root = as(await login(app))
  for (const [k, v] of Object.entries({ GitHubOAuthEnabled: true, GitHubClientId: CLIENT.id, GitHubClientSecret: CLIENT.secret, RegisterEnabled: true })) {
    expect((await setOption(k, v)).status).toBe(200)
  }
})
afterAll(async () => {
  await app.stop()
  github.stop()
})
beforeEach(() => {
  github.account = { id: 1001, login: 'octo', name: 'Octo Cat', email: 'octo@example.com' }
})

const userRow = (id: number) => app.db.$client.query('SELECT username, password, email FROM users WHERE id = ?').get(id) as { username: string; password: string; email: string }
const bindingsOf = (userId: number) => app.db.$client.query('SELECT provider, external_id FROM user_bindings WHERE user_id = ?').all(userId)

test('/api/status names GitHub and its client id, never the secret', async () => {
  const { body } = await call(app, 'GET', '/api/status')
  expect(body.data).toMatchObject({ github_oauth: true, github_client_id: CLIENT.id, discord_oauth: false, oidc_enabled: false })
  expect(JSON.stringify(body)).not.toContain(CLIENT.secret)
})

test('the client secret is stored sealed and shown masked; sending the mask back keeps it', async () => {
  const stored = app.db.$client.query("SELECT value FROM options WHERE key = 'GitHubClientSecret'").get() as { value: string }
  expect(stored.value).toStartWith('v1:')
  expect(stored.value).not.toContain(CLIENT.secret)
  const listed = (await call(app, 'GET', '/api/option/', undefined, root)).body.data.find((o: { key: string }) => o.key === 'GitHubClientSecret')
  expect(listed).toMatchObject({ value: '', configured: true })
  expect((await setOption('GitHubClientSecret', '********')).body.data).toMatchObject({ value: '', configured: true })
  expect((app.db.$client.query("SELECT value FROM options WHERE key = 'GitHubClientSecret'").get() as { value: string }).value).toBe(stored.value)
})

test('the authorization URL goes to the fake with state, PKCE S256 and the exact redirect URI', async () => {
  const jar = new Jar()
  const start = await api(app, jar, '/api/oauth/state?provider=github')
  expect(start.status).toBe(200)
  const url = new URL(start.body.data.authorize_url)
  expect(url.origin).toBe(github.url)
  expect(url.pathname).toBe('/login/oauth/authorize')
  expect(url.searchParams.get('redirect_uri')).toBe(`${app.url}/oauth/github`)
  expect(url.searchParams.get('state')).toBe(start.body.data.state)
  expect(url.searchParams.get('code_challenge_method')).toBe('S256')
  expect(url.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/)
  // the verifier stays on the server side: neither the response nor the URL carries it
  expect(jar.get('tollgate_oauth')).toBeDefined()
})

test('a first GitHub sign-in signs up (verified e-mail kept, no password), the next one signs in as the same user', async () => {
  const first = await signIn(app, new Jar(), 'github')
  expect(first.status).toBe(200)
  expect(first.body.data).toMatchObject({ action: 'register', username: 'octo', display_name: 'Octo Cat' })
  const id = first.body.data.id as number
  expect(userRow(id)).toEqual({ username: 'octo', password: '', email: 'octo@example.com' })
  expect(bindingsOf(id)).toEqual([{ provider: 'github', external_id: '1001' }])
  // the token request carried the verifier and the same redirect URI (the fake refuses otherwise)
  expect(github.tokenRequests.at(-1)).toMatchObject({ redirect_uri: `${app.url}/oauth/github`, client_id: CLIENT.id })

  const jar = new Jar()
  const again = await signIn(app, jar, 'github')
  expect(again.body.data).toMatchObject({ action: 'login', id })
  expect(jar.get(SESSION_COOKIE)).toBeDefined()
  const self = await api(app, jar, '/api/user/self')
  expect(self.body.data.username).toBe('octo')
})

test('a password login cannot be had for a user without a password', async () => {
  const res = await call(app, 'POST', '/api/user/login', { username: 'octo', password: '' })
  expect(res.status).toBeGreaterThanOrEqual(400)
})

test('a state from another browser, a forged one, and a replayed callback are refused', async () => {
  const { query } = await authorize(app, new Jar(), 'github')
  const stranger = await api(app, new Jar(), `/api/oauth/github${query}`)
  expect([stranger.status, stranger.body.data.code]).toEqual([400, 'oauth_state_invalid'])

  const jar = new Jar()
  const started = await authorize(app, jar, 'github')
  const forged = started.query.replace(/state=[^&]+/, 'state=forged')
  const bad = await api(app, jar, `/api/oauth/github${forged}`)
  expect([bad.status, bad.body.data.code]).toEqual([400, 'oauth_state_invalid'])

  const replayJar = new Jar()
  const done = await authorize(app, replayJar, 'github')
  const saved = replayJar.header()
  expect((await api(app, replayJar, `/api/oauth/github${done.query}`)).status).toBe(200)
  // the same cookie and callback again (an attacker who copied both): used once, on every node
  const replay = await app.fetch(`/api/oauth/github${done.query}`, { headers: saved })
  expect(replay.status).toBe(400)
  expect(((await replay.json()) as any).data.code).toBe('oauth_state_used')
})

test('a callback on another provider than the one started is refused; so is a code sent with another redirect URI', async () => {
  const jar = new Jar()
  const { query } = await authorize(app, jar, 'github')
  const other = await api(app, jar, `/api/oauth/discord${query}`)
  expect([other.status, other.body.data.code, other.body.message]).toEqual([400, 'oauth_state_invalid', 'this sign-in was started for github, not discord'])

  // the provider checks the redirect URI of the token request against the authorization's
  const jar3 = new Jar()
  const start = await api(app, jar3, '/api/oauth/state?provider=github')
  const url = new URL(start.body.data.authorize_url)
  url.searchParams.set('redirect_uri', 'http://evil.example/oauth/github')
  const back = new URL((await fetch(url, { redirect: 'manual' })).headers.get('location')!)
  const refused = await api(app, jar3, `/api/oauth/github${back.search}`)
  expect([refused.status, refused.body.data.code]).toEqual([400, 'oauth_failed'])
})

test('binding: a GitHub account bound elsewhere is refused; binding and unbinding from the profile; never the last way in', async () => {
  const alice = await addUser(app, { username: 'alice' })
  const jar = new Jar()
  jar.take(new Headers({ 'set-cookie': `${SESSION_COOKIE}=${(await login(app, 'alice')).split('=').slice(1).join('=')}` }))
  // octo (1001) is bound to the user it signed up
  const taken = await signIn(app, jar, 'github', 'bind')
  expect([taken.status, taken.body.data.code]).toEqual([409, 'oauth_bound_elsewhere'])

  github.account = { id: 2002, login: 'alice-gh', email: 'alice@example.com' }
  const bound = await signIn(app, jar, 'github', 'bind')
  expect(bound.status).toBe(200)
  expect(bound.body.data).toEqual({ action: 'bind', provider: 'github' })
  expect(bindingsOf(alice.id)).toEqual([{ provider: 'github', external_id: '2002' }])
  const listed = await api(app, jar, '/api/user/oauth/bindings')
  expect(listed.body.data).toMatchObject({ has_password: true, bindings: [{ provider: 'github', external_id: '2002' }] })
  // alice has a password: she may unbind
  expect((await api(app, jar, '/api/user/bindings/github', 'DELETE')).status).toBe(200)
  expect(bindingsOf(alice.id)).toEqual([])

  // octo signed up through GitHub and has no password: GitHub is the last way in
  github.account = { id: 1001, login: 'octo' }
  const octo = new Jar()
  await signIn(app, octo, 'github')
  const last = await api(app, octo, '/api/user/bindings/github', 'DELETE')
  expect([last.status, last.body.data.code]).toEqual([409, 'last_sign_in'])
})

test('an admin sees and clears a user\'s bindings', async () => {
  const octoId = (app.db.$client.query("SELECT id FROM users WHERE username = 'octo'").get() as { id: number }).id
  const seen = await call(app, 'GET', `/api/user/${octoId}/oauth/bindings`, undefined, root)
  expect(seen.body.data).toMatchObject({ has_password: false, bindings: [{ provider: 'github', external_id: '1001' }] })
  expect((await call(app, 'DELETE', `/api/user/${octoId}/bindings/github`, undefined, root)).status).toBe(200)
  expect(bindingsOf(octoId)).toEqual([])
  expect((await call(app, 'DELETE', `/api/user/${octoId}/bindings/github`, undefined, root)).status).toBe(404)
})

test('an e-mail a user here has never joins accounts: unverified is refused as such, and nothing is written', async () => {
  await addUser(app, { username: 'bob', email: 'bob@example.com' })
  const before = (app.db.$client.query('SELECT count(*) AS n FROM users').get() as { n: number }).n
  github.account = { id: 3003, login: 'mallory', email: 'Bob@Example.com', verified: false }
  const refused = await signIn(app, new Jar(), 'github')
  expect([refused.status, refused.body.data.code]).toEqual([409, 'oauth_email_unverified'])
  github.account = { id: 3003, login: 'mallory', email: 'bob@example.com', verified: true }
  const verified = await signIn(app, new Jar(), 'github')
  expect([verified.status, verified.body.data.code]).toEqual([409, 'oauth_email_in_use'])
  expect((app.db.$client.query('SELECT count(*) AS n FROM users').get() as { n: number }).n).toBe(before)
  expect(app.db.$client.query("SELECT * FROM user_bindings WHERE external_id = '3003'").all()).toEqual([])
})

test('an unverified e-mail of nobody here signs up without it', async () => {
  github.account = { id: 4004, login: 'carol', email: 'carol@example.com', verified: false }
  const res = await signIn(app, new Jar(), 'github')
  expect(res.body.data.action).toBe('register')
  expect(userRow(res.body.data.id).email).toBe('')
})

test('sign-up through GitHub follows RegisterEnabled', async () => {
  await setOption('RegisterEnabled', false)
  try {
    github.account = { id: 5005, login: 'dave' }
    const res = await signIn(app, new Jar(), 'github')
    expect([res.status, res.body.data.code]).toEqual([403, 'registration_disabled'])
    // a bound user still signs in
    github.account = { id: 4004, login: 'carol' }
    expect((await signIn(app, new Jar(), 'github')).body.data.action).toBe('login')
  } finally {
    await setOption('RegisterEnabled', true)
  }
})

test('a disabled provider and an unknown one are refused with their codes', async () => {
  const off = await api(app, new Jar(), '/api/oauth/state?provider=discord')
  expect([off.status, off.body.data.code]).toEqual([403, 'oauth_disabled'])
  const unknown = await api(app, new Jar(), '/api/oauth/state?provider=myspace')
  expect([unknown.status, unknown.body.data.code]).toEqual([404, 'oauth_unknown_provider'])
})

// last: it leaves this address waiting
test('failed callbacks count against the address, as failed password logins do', async () => {
  github.account = { id: 4004, login: 'carol' }
  expect((await signIn(app, new Jar(), 'github')).status).toBe(200) // a success: the address starts over
  await setOption('LoginFailuresPerAddress', 2)
  const statuses: number[] = []
  for (let i = 0; i < 4; i++) statuses.push((await api(app, new Jar(), '/api/oauth/github?code=x&state=forged')).status)
  expect(statuses).toEqual([400, 400, 429, 429])
  // a password login from the same address waits too: one limiter for every way in
  expect((await call(app, 'POST', '/api/user/login', { username: 'root', password: 'wrong-password' })).status).toBe(429)
})
