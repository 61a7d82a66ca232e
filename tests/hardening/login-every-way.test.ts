/**
 * The login limiter of the hardening work covers every way in: failed passwords, 2FA codes, backup codes, passkey
 * assertions, OAuth callbacks, Telegram's widget data and WeChat codes all fill the same per-address counter
 * (`LoginFailuresPerAddress`), and once it is full every way in from that address waits (429 login_rate_limited),
 * the right credentials too; another address is not held up.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { addUser, as, login, USER_PASSWORD } from '../helpers/accounts'
import { signTelegram } from '../helpers/fake-oauth/telegram'
import { startFakeWeChat, type FakeWeChat } from '../helpers/fake-oauth/wechat'
import { stopLoginClock } from '../helpers/login-clock'
import { call, startTestApp, type TestApp } from '../helpers/test-app'
import { totpCode } from '../helpers/totp'

const BOT = { name: 'LimitBot', token: '4242:AAH-limit-bot-token' }
const WECHAT_TOKEN = 'wechat-limit-token'
const FREE = 7
let app: TestApp
let wechat: FakeWeChat
let totpSecret: string

const from = (ip: string, extra: Record<string, string> = {}) => ({ 'x-forwarded-for': ip, ...extra })
const password = (username: string, pw: string, ip: string) => call(app, 'POST', '/api/user/login', { username, password: pw }, from(ip))
const secondStep = (code: string, flowToken: string, ip: string) => call(app, 'POST', '/api/user/login/2fa', { code, flow_token: flowToken }, from(ip))
const passkey = (ip: string) =>
  call(app, 'POST', '/api/user/passkey/login/finish', { id: 'AAAA', rawId: 'AAAA', type: 'public-key', response: { clientDataJSON: 'e30', authenticatorData: 'AAAA', signature: 'AAAA' } }, from(ip))
const oauthCallback = (ip: string) => call(app, 'GET', '/api/oauth/github?code=stolen&state=forged', undefined, from(ip))
const telegram = (query: URLSearchParams, ip: string) => call(app, 'GET', `/api/oauth/telegram/login?${query}`, undefined, from(ip))
const wechatCode = (code: string, ip: string) => call(app, 'GET', `/api/oauth/wechat?code=${code}`, undefined, from(ip))

beforeAll(async () => {
  wechat = startFakeWeChat(WECHAT_TOKEN)
  app = await startTestApp({ TRUST_PROXY: 'true' })
  const root = as(await login(app))
  const options = { RegisterEnabled: true, TelegramOAuthEnabled: true, TelegramBotName: BOT.name, TelegramBotToken: BOT.token, WeChatAuthEnabled: true, WeChatServerAddress: wechat.url, WeChatServerToken: WECHAT_TOKEN }
  for (const [key, value] of Object.entries(options)) expect((await call(app, 'PUT', '/api/option/', { key, value }, root)).status).toBe(200)
  await addUser(app, { username: 'walt' })
  await addUser(app, { username: 'tia' })
  // tia turns on TOTP
  const tia = as(await login(app, 'tia'))
  totpSecret = (await call(app, 'POST', '/api/user/2fa/setup', {}, tia)).body.data.secret
  expect((await call(app, 'POST', '/api/user/2fa/enable', { code: totpCode(totpSecret) }, tia)).status).toBe(200)
  stopLoginClock(app.deps)
  await app.deps.options.set('LoginFailuresPerAddress', FREE)
  await app.deps.options.set('LoginFailuresPerAccount', 100)
})
afterAll(async () => {
  await app.stop()
  wechat.stop()
})

test('failures of every kind fill one address counter; then every way in from it waits, another address does not', async () => {
  const ip = '10.77.0.1'
  // tia's right password starts her second step (a success: it takes nothing from the address)
  const first = await password('tia', USER_PASSWORD, ip)
  expect(first.body.data.require_2fa).toBe(true)
  const flowToken = first.body.data.flow_token as string

  const wrongTotp = totpCode(totpSecret) === '000000' ? '111111' : '000000'
  const failures = [
    await password('walt', 'wrong-password', ip),
    await secondStep(wrongTotp, flowToken, ip),
    await secondStep('ZZZZZ-ZZZZZ', flowToken, ip), // a backup code's shape, not one of hers
    await passkey(ip),
    await oauthCallback(ip),
    await telegram(signTelegram('999:AAH-not-the-bot', { id: 1, first_name: 'Mallory' }), ip),
    await wechatCode('999999', ip),
  ]
  expect(failures).toHaveLength(FREE)
  for (const failure of failures) {
    expect(failure.status).toBeGreaterThanOrEqual(400)
    expect(failure.status).toBeLessThan(500)
    expect(failure.status).not.toBe(429)
  }

  // the counter is full: the right credentials of every way in now wait, with the limiter's answer
  const waits = [
    await password('walt', USER_PASSWORD, ip),
    await secondStep(totpCode(totpSecret), flowToken, ip),
    await passkey(ip),
    await oauthCallback(ip),
    await telegram(signTelegram(BOT.token, { id: 2, first_name: 'Real' }), ip),
    await wechatCode(wechat.issue('oLimit-openid'), ip),
  ]
  for (const wait of waits) {
    expect(wait.status).toBe(429)
    expect(wait.body.data.code).toBe('login_rate_limited')
    expect(Number(wait.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(wait.headers.getSetCookie().some((c) => c.startsWith('tollgate_session='))).toBe(false)
  }
  // nothing was asked of the WeChat server for the refused code, and no user was made for it
  expect(wechat.requests.some((r) => r.code !== '999999')).toBe(false)

  // another address is not held up
  expect((await password('walt', USER_PASSWORD, '10.77.9.9')).status).toBe(200)
  expect((await telegram(signTelegram(BOT.token, { id: 3, first_name: 'Other' }), '10.77.9.9')).status).toBe(200)
})
