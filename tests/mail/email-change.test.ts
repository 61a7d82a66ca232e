/**
 * Changing one's e-mail against a real SMTP server: behind secure verification (a session that proved its user in
 * the last 5 minutes; an access token never), a code mailed to the new address for this user only, then new-api's
 * POST /api/oauth/email/bind. The code works once, for its user; an address another account has gets the "already
 * has an account" mail and the same answer; the mail limits apply.
 */
import { afterAll, beforeAll, expect, setSystemTime, test } from 'bun:test'
import { addUser, as, login, USER_PASSWORD } from '../helpers/accounts'
import type { TestSmtp } from '../helpers/smtp-server'
import { call, startTestApp, type TestApp } from '../helpers/test-app'
import { withSmtp } from './mail-setup'

let app: TestApp
let smtp: TestSmtp
beforeAll(async () => {
  app = await startTestApp()
  ;({ smtp } = await withSmtp(app, { EmailPerRecipientPerHour: 3, EmailPerClientPerHour: 50 }))
})
afterAll(async () => {
  setSystemTime()
  await smtp.stop()
  await app.stop()
})

const codeIn = (text: string | undefined) => /\b(\d{6})\b/.exec(text ?? '')?.[1]
const emailOf = (id: number) => (app.db.$client.query('SELECT email FROM users WHERE id = ?').get(id) as { email: string }).email
const askCode = (cookie: Record<string, string>, email: string, lang = 'en') => call(app, 'POST', '/api/user/email/code', { email, lang }, cookie)
const bind = (cookie: Record<string, string>, email: string, code: string) => call(app, 'POST', '/api/oauth/email/bind', { email, code }, cookie)

test('a fresh session gets a code at the new address (in its language) and changes the e-mail once', async () => {
  const fay = await addUser(app, { username: 'fay', email: 'fay@old.example' })
  const cookie = as(await login(app, 'fay'))
  expect((await askCode(cookie, 'Fay@New.example', 'zh-CN')).status).toBe(200)
  const { mail } = await smtp.next()
  expect(mail.to).toMatchObject({ text: 'fay@new.example' })
  expect(mail.subject).toBe('Tollgate 更换邮箱验证码')
  const code = codeIn(mail.text)!
  expect(mail.html).toContain(code)
  // still the old address until the code comes back
  expect(emailOf(fay.id)).toBe('fay@old.example')
  const wrong = await bind(cookie, 'fay@new.example', code === '000000' ? '111111' : '000000')
  expect(wrong.status).toBe(400)
  expect(wrong.body.data.code).toBe('verification_code_invalid')
  const done = await bind(cookie, 'fay@new.example', code)
  expect(done.status).toBe(200)
  expect(done.body.data).toEqual({ email: 'fay@new.example' })
  expect(emailOf(fay.id)).toBe('fay@new.example')
  expect((await bind(cookie, 'fay@new.example', code)).body.data.code).toBe('verification_code_invalid')
  // the new address is a login name now
  expect((await call(app, 'POST', '/api/user/login', { username: 'fay@new.example', password: USER_PASSWORD })).status).toBe(200)
})

test('a code is its user’s: another user cannot change their e-mail with it', async () => {
  const gil = as(await login(app, (await addUser(app, { username: 'gil' })).username))
  const hal = await addUser(app, { username: 'hal' })
  const halCookie = as(await login(app, 'hal'))
  expect((await askCode(gil, 'shared@example.com')).status).toBe(200)
  const code = codeIn((await smtp.next()).mail.text)!
  expect((await bind(halCookie, 'shared@example.com', code)).body.data.code).toBe('verification_code_invalid')
  expect(emailOf(hal.id)).toBe('')
})

test('an address another account has: the same answer, a mail saying so, no code, no change', async () => {
  await addUser(app, { username: 'ivy', email: 'ivy@example.com' })
  const jon = await addUser(app, { username: 'jon' })
  const cookie = as(await login(app, 'jon'))
  const asked = await askCode(cookie, 'ivy@example.com')
  expect(asked.status).toBe(200)
  const { mail } = await smtp.next()
  expect(mail.subject).toBe('Tollgate sign-up request')
  expect(codeIn(mail.text)).toBeUndefined()
  expect((await bind(cookie, 'ivy@example.com', '123456')).body.data.code).toBe('verification_code_invalid')
  expect(emailOf(jon.id)).toBe('')
})

test('secure verification first: a stale session is asked to verify, an access token never passes', async () => {
  const kim = await addUser(app, { username: 'kim' })
  const cookie = as(await login(app, 'kim'))
  setSystemTime(new Date(Date.now() + 6 * 60_000))
  try {
    for (const res of [await askCode(cookie, 'kim@example.com'), await bind(cookie, 'kim@example.com', '123456')]) {
      expect(res.status).toBe(403)
      expect(res.body.data.code).toBe('secure_verification_required')
    }
    const verified = await call(app, 'POST', '/api/verify', { method: 'password', password: USER_PASSWORD }, cookie)
    expect(verified.status).toBe(200)
    const renewed = as(verified.headers.getSetCookie().find((c) => c.startsWith('tollgate_session='))!.split(';')[0]!)
    expect((await askCode(renewed, 'kim@example.com')).status).toBe(200)
    const code = codeIn((await smtp.next()).mail.text)!
    expect((await bind(renewed, 'kim@example.com', code)).status).toBe(200)
    expect(emailOf(kim.id)).toBe('kim@example.com')
  } finally {
    setSystemTime()
  }
  const token = (await call(app, 'GET', '/api/user/token', undefined, as(await login(app, 'kim')))).body.data as string
  const byToken = await askCode({ authorization: `Bearer ${token}` }, 'kim2@example.com')
  expect(byToken.status).toBe(403)
  expect(byToken.body.data.code).toBe('secure_verification_needs_session')
})

test('the mail limits apply: a recipient gets at most EmailPerRecipientPerHour codes', async () => {
  await addUser(app, { username: 'lea' })
  const cookie = as(await login(app, 'lea'))
  for (let i = 0; i < 3; i++) {
    expect((await askCode(cookie, 'lea@example.com')).status).toBe(200)
    await smtp.next()
  }
  const limited = await askCode(cookie, 'lea@example.com')
  expect(limited.status).toBe(429)
  expect(limited.body.data.code).toBe('mail_rate_limited')
})
