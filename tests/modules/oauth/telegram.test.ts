/**
 * Telegram's login widget (new-api's /api/oauth/telegram/login and /bind): the widget's data checked as Telegram
 * documents it (data-check-string, HMAC-SHA-256 under SHA-256(bot token)), fresh, used once; sign-up follows
 * RegisterEnabled; binding needs a session and refuses an account bound elsewhere; the bot token sealed and never
 * shown; the widget's origins in the console's CSP only while Telegram sign-in is on.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { addUser, as, login } from '../../helpers/accounts'
import { signTelegram, type TelegramAccount } from '../../helpers/fake-oauth/telegram'
import { call, startTestApp, type TestApp } from '../../helpers/test-app'

const BOT = { name: 'TollgateTestBot', token: '123456789:AAH-tollgate-test-bot-token_0123456789' }
const FAKE_WIDGET = 'http://127.0.0.1:9'
const ALICE: TelegramAccount = { id: 77001, first_name: 'Alice', last_name: 'Liddell', username: 'alice_tg' }
let app: TestApp
let root: Record<string, string>

const setOption = (key: string, value: unknown) => call(app, 'PUT', '/api/option/', { key, value }, root)
const usersNamed = (username: string) => app.db.$client.query('SELECT id, password, email, display_name FROM users WHERE username = ?').all(username) as { id: number; password: string; email: string; display_name: string }[]
const bindingsOf = (userId: number) => app.db.$client.query('SELECT provider, external_id FROM user_bindings WHERE user_id = ?').all(userId)
const loginWith = (query: URLSearchParams, headers: Record<string, string> = {}) => call(app, 'GET', `/api/oauth/telegram/login?${query}`, undefined, headers)

beforeAll(async () => {
  app = await startTestApp({ PROVIDER_ENDPOINTS: JSON.stringify({ telegram: FAKE_WIDGET }) })
  root = as(await login(app))
})
afterAll(() => app.stop())

test('off until switched on with a bot name and token; /api/status names the bot and the widget, never the token', async () => {
  expect((await loginWith(signTelegram(BOT.token, ALICE))).body).toMatchObject({ success: false, data: { code: 'oauth_disabled' } })
  expect((await call(app, 'GET', '/api/status')).body.data).toMatchObject({ telegram_oauth: false })
  const page = await app.fetch('/login')
  expect(page.headers.get('content-security-policy')).not.toContain(FAKE_WIDGET)

  expect((await setOption('TelegramOAuthEnabled', true)).status).toBe(200)
  expect((await loginWith(signTelegram(BOT.token, ALICE))).body.data).toMatchObject({ code: 'oauth_not_configured' })
  expect((await setOption('TelegramBotName', '@not a bot')).status).toBe(400)
  for (const [key, value] of Object.entries({ TelegramBotName: BOT.name, TelegramBotToken: BOT.token, RegisterEnabled: true })) expect((await setOption(key, value)).status).toBe(200)

  const status = (await call(app, 'GET', '/api/status')).body
  expect(status.data).toMatchObject({ telegram_oauth: true, telegram_bot_name: BOT.name, telegram_widget_url: `${FAKE_WIDGET}/js/telegram-widget.js?22` })
  expect(JSON.stringify(status)).not.toContain(BOT.token)
  const stored = app.db.$client.query("SELECT value FROM options WHERE key = 'TelegramBotToken'").get() as { value: string }
  expect(stored.value).toStartWith('v1:')
  expect(stored.value).not.toContain('tollgate-test-bot')
  const listed = (await call(app, 'GET', '/api/option/', undefined, root)).body.data.find((o: { key: string }) => o.key === 'TelegramBotToken')
  expect(listed).toMatchObject({ value: '', configured: true })
  // the console's page may load the widget's script and frame now, from where PROVIDER_ENDPOINTS sends telegram
  const csp = (await app.fetch('/login')).headers.get('content-security-policy')!
  expect(csp).toMatch(new RegExp(`script-src 'self'[^;]*${FAKE_WIDGET}`))
  expect(csp).toMatch(new RegExp(`frame-src [^;]*${FAKE_WIDGET}`))
})

test('the first sign-in signs up (no password, no e-mail), the next signs in as the same user', async () => {
  const first = await loginWith(signTelegram(BOT.token, ALICE))
  expect(first.status).toBe(200)
  expect(first.body.data).toMatchObject({ action: 'register', username: 'alice_tg', display_name: 'Alice Liddell' })
  expect(first.headers.getSetCookie().some((c) => c.startsWith('tollgate_session='))).toBe(true)
  const [row] = usersNamed('alice_tg')
  expect(row).toMatchObject({ password: '', email: '' })
  expect(bindingsOf(row!.id)).toEqual([{ provider: 'telegram', external_id: '77001' }])

  // a later sign-in: fresh data (another auth_date, so another hash)
  const again = await loginWith(signTelegram(BOT.token, ALICE, Math.floor(Date.now() / 1000) - 5))
  expect(again.status).toBe(200)
  expect(again.body.data).toMatchObject({ action: 'login', id: row!.id })
  expect(usersNamed('alice_tg')).toHaveLength(1)
})

test('refusals: a replay, a changed field, another bot’s signature, stale or future data, missing or extra fields', async () => {
  const query = signTelegram(BOT.token, { ...ALICE, id: 77002, username: 'replayed' })
  expect((await loginWith(query)).status).toBe(200)
  const replay = await loginWith(query)
  expect(replay.status).toBe(400)
  expect(replay.body.data).toEqual({ code: 'telegram_auth_used' })

  const changed = signTelegram(BOT.token, { ...ALICE, id: 77003 })
  changed.set('id', '1')
  const otherBot = signTelegram('987654321:AAH-another-bot', { ...ALICE, id: 77004 })
  const extra = signTelegram(BOT.token, { ...ALICE, id: 77005 })
  extra.set('role', 'root')
  const noHash = signTelegram(BOT.token, { ...ALICE, id: 77006 })
  noHash.delete('hash')
  for (const bad of [changed, otherBot, extra]) expect((await loginWith(bad)).body).toMatchObject({ success: false, data: { code: 'telegram_auth_invalid' } })
  expect((await loginWith(noHash)).status).toBe(400)
  // an acting GET: a page on another site cannot sign a browser in with data it holds (login CSRF)
  const crossSite = await loginWith(signTelegram(BOT.token, { ...ALICE, id: 77008 }), { 'sec-fetch-site': 'cross-site' })
  expect(crossSite.status).toBe(403)
  expect(crossSite.body.data).toMatchObject({ code: 'cross_origin' })

  const now = Math.floor(Date.now() / 1000)
  for (const authDate of [now - 2 * 3600, now + 600]) {
    const stale = await loginWith(signTelegram(BOT.token, { ...ALICE, id: 77007 }, authDate))
    expect(stale.status).toBe(400)
    expect(stale.body.data).toEqual({ code: 'telegram_auth_expired' })
  }
  // nothing was made for any of them
  expect(app.db.$client.query("SELECT count(*) AS n FROM user_bindings WHERE provider = 'telegram' AND external_id IN ('1', '77003', '77004', '77005', '77006', '77007', '77008')").get()).toEqual({ n: 0 })
})

test('sign-up follows RegisterEnabled: closed, an unknown account is refused and nothing is written', async () => {
  expect((await setOption('RegisterEnabled', false)).status).toBe(200)
  try {
    const users = app.db.$client.query('SELECT count(*) AS n FROM users').get()
    const closed = await loginWith(signTelegram(BOT.token, { id: 77010, first_name: 'Late' }))
    expect(closed.status).toBe(403)
    expect(closed.body.data).toEqual({ code: 'registration_disabled' })
    expect(app.db.$client.query('SELECT count(*) AS n FROM users').get()).toEqual(users)
    // a bound account still signs in
    expect((await loginWith(signTelegram(BOT.token, ALICE, Math.floor(Date.now() / 1000) - 10))).body.data).toMatchObject({ action: 'login', username: 'alice_tg' })
  } finally {
    await setOption('RegisterEnabled', true)
  }
})

test('binding: needs a session, binds to the user, refuses an account bound elsewhere and a second Telegram account', async () => {
  const anonymous = await call(app, 'GET', `/api/oauth/telegram/bind?${signTelegram(BOT.token, { id: 77020, first_name: 'Bob' })}`)
  expect(anonymous.status).toBe(401)
  const bob = await addUser(app, { username: 'bob_pw' })
  const cookie = as(await login(app, 'bob_pw'))
  const bound = await call(app, 'GET', `/api/oauth/telegram/bind?${signTelegram(BOT.token, { id: 77020, first_name: 'Bob' })}`, undefined, cookie)
  expect(bound.status).toBe(200)
  expect(bound.body.data).toEqual({ action: 'bind', provider: 'telegram' })
  expect(bindingsOf(bob.id)).toEqual([{ provider: 'telegram', external_id: '77020' }])

  const elsewhere = await call(app, 'GET', `/api/oauth/telegram/bind?${signTelegram(BOT.token, ALICE, Math.floor(Date.now() / 1000) - 20)}`, undefined, cookie)
  expect(elsewhere.status).toBe(409)
  expect(elsewhere.body.data).toEqual({ code: 'oauth_bound_elsewhere' })
  const second = await call(app, 'GET', `/api/oauth/telegram/bind?${signTelegram(BOT.token, { id: 77021, first_name: 'Bob2' })}`, undefined, cookie)
  expect(second.body.data).toEqual({ code: 'oauth_provider_bound' })
  expect(bindingsOf(bob.id)).toEqual([{ provider: 'telegram', external_id: '77020' }])
  // and the bound account now signs in as bob
  expect((await loginWith(signTelegram(BOT.token, { id: 77020, first_name: 'Bob' }, Math.floor(Date.now() / 1000) - 3))).body.data).toMatchObject({ action: 'login', id: bob.id })
})
