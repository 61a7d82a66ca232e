/**
 * WeChat through new-api's WeChat-server protocol (/api/oauth/wechat, /api/oauth/wechat/bind): the code typed by the
 * user is asked of the WeChat server (/api/wechat/user?code= with the server token) through the outbound guard; the
 * openid it answers signs in, signs up (RegisterEnabled) or binds; wrong codes, a wrong token, a broken server are
 * clear refusals with nothing written; the token sealed; the QR image's origin in the CSP only while on.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { addUser, as, login } from '../../helpers/accounts'
import { startFakeWeChat, type FakeWeChat } from '../../helpers/fake-oauth/wechat'
import { call, startTestApp, type TestApp } from '../../helpers/test-app'

const TOKEN = 'wechat-server-token-0123456789'
const QR = 'https://wechat-qr.example.com/account.png'
let wechat: FakeWeChat
let app: TestApp
let root: Record<string, string>

const setOption = (key: string, value: unknown) => call(app, 'PUT', '/api/option/', { key, value }, root)
const signIn = (code: string) => call(app, 'GET', `/api/oauth/wechat?code=${encodeURIComponent(code)}`)
const bindingOwner = (openid: string) => (app.db.$client.query("SELECT user_id FROM user_bindings WHERE provider = 'wechat' AND external_id = ?").get(openid) as { user_id: number } | null)?.user_id
const userCount = () => (app.db.$client.query('SELECT count(*) AS n FROM users').get() as { n: number }).n

beforeAll(async () => {
  wechat = startFakeWeChat(TOKEN)
  app = await startTestApp()
  root = as(await login(app))
})
afterAll(async () => {
  await app.stop()
  wechat.stop()
})

test('off until switched on with a server and token; /api/status shows the QR image, never the token; the CSP allows the image then', async () => {
  expect((await signIn('123456')).body.data).toEqual({ code: 'oauth_disabled' })
  expect((await setOption('WeChatServerAddress', `${wechat.url}/`)).status).toBe(400)
  expect((await setOption('WeChatAccountQRCodeImageURL', 'javascript:alert(1)')).status).toBe(400)
  for (const [key, value] of Object.entries({ WeChatAuthEnabled: true, WeChatServerAddress: wechat.url, WeChatAccountQRCodeImageURL: QR, RegisterEnabled: true })) expect((await setOption(key, value)).status).toBe(200)
  expect((await signIn('123456')).body.data).toEqual({ code: 'oauth_not_configured' })
  expect((await call(app, 'GET', '/api/status')).body.data).toMatchObject({ wechat_login: false })
  expect((await app.fetch('/login')).headers.get('content-security-policy')).not.toContain('wechat-qr.example.com')

  expect((await setOption('WeChatServerToken', TOKEN)).status).toBe(200)
  const status = (await call(app, 'GET', '/api/status')).body
  expect(status.data).toMatchObject({ wechat_login: true, wechat_qrcode: QR })
  expect(JSON.stringify(status)).not.toContain(TOKEN)
  expect((app.db.$client.query("SELECT value FROM options WHERE key = 'WeChatServerToken'").get() as { value: string }).value).toStartWith('v1:')
  expect((await app.fetch('/login')).headers.get('content-security-policy')).toMatch(/img-src 'self' data:[^;]* https:\/\/wechat-qr\.example\.com/)
})

test('a code signs up, a later code signs in as the same user; the server was asked with the token', async () => {
  const first = await signIn(wechat.issue('oWx-openid-0001'))
  expect(first.status).toBe(200)
  expect(first.body.data).toMatchObject({ action: 'register', display_name: 'WeChat User' })
  expect(first.headers.getSetCookie().some((c) => c.startsWith('tollgate_session='))).toBe(true)
  expect(bindingOwner('oWx-openid-0001')).toBe(first.body.data.id)
  expect(wechat.requests.at(-1)?.authorization).toBe(TOKEN)

  const again = await signIn(wechat.issue('oWx-openid-0001'))
  expect(again.body.data).toMatchObject({ action: 'login', id: first.body.data.id })
})

test('refusals write nothing: a wrong or used code, a bad code shape, a wrong token, a broken server', async () => {
  const users = userCount()
  const code = wechat.issue('oWx-openid-0002')
  expect((await signIn(code)).status).toBe(200)
  const used = await signIn(code)
  expect(used.status).toBe(400)
  expect(used.body.data).toEqual({ code: 'wechat_code_invalid' })
  expect((await signIn('999999')).body.data).toEqual({ code: 'wechat_code_invalid' })
  expect((await signIn('12 34<')).status).toBe(400)

  expect((await setOption('WeChatServerToken', 'another-token')).status).toBe(200)
  expect((await signIn(wechat.issue('oWx-openid-0003'))).body.data).toEqual({ code: 'wechat_code_invalid' })
  expect((await setOption('WeChatServerToken', TOKEN)).status).toBe(200)

  for (const override of [{ status: 500, body: '{}' }, { status: 200, body: 'not json' }, { status: 200, body: JSON.stringify({ success: true, data: 'bad id with spaces' }) }, { status: 200, body: 'x'.repeat(40_000) }]) {
    wechat.override = override
    const broken = await signIn(wechat.issue('oWx-openid-0004'))
    expect(broken.status).toBe(502)
    expect(broken.body.data).toEqual({ code: 'wechat_server_failed' })
  }
  wechat.override = undefined
  expect(userCount()).toBe(users + 1)
  expect(bindingOwner('oWx-openid-0003')).toBeUndefined()
  expect(bindingOwner('oWx-openid-0004')).toBeUndefined()
})

test('sign-up follows RegisterEnabled', async () => {
  expect((await setOption('RegisterEnabled', false)).status).toBe(200)
  try {
    const users = userCount()
    const closed = await signIn(wechat.issue('oWx-openid-0010'))
    expect(closed.status).toBe(403)
    expect(closed.body.data).toEqual({ code: 'registration_disabled' })
    expect(userCount()).toBe(users)
  } finally {
    await setOption('RegisterEnabled', true)
  }
})

test('binding: needs a session, binds the code’s account, refuses one bound elsewhere', async () => {
  expect((await call(app, 'POST', '/api/oauth/wechat/bind', { code: wechat.issue('oWx-openid-0020') })).status).toBe(401)
  const dana = await addUser(app, { username: 'dana' })
  const cookie = as(await login(app, 'dana'))
  const bound = await call(app, 'POST', '/api/oauth/wechat/bind', { code: wechat.issue('oWx-openid-0020') }, cookie)
  expect(bound.status).toBe(200)
  expect(bound.body.data).toEqual({ action: 'bind', provider: 'wechat' })
  expect(bindingOwner('oWx-openid-0020')).toBe(dana.id)
  const elsewhere = await call(app, 'POST', '/api/oauth/wechat/bind', { code: wechat.issue('oWx-openid-0001') }, cookie)
  expect(elsewhere.status).toBe(409)
  expect(elsewhere.body.data).toEqual({ code: 'oauth_bound_elsewhere' })
})
