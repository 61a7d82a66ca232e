/**
 * Registration with a mailed code (EmailVerificationEnabled) against a real SMTP server: the code in the user's
 * language, used once, refused when wrong, expired or replayed, bounded in tries and in mails; new-api's domain
 * and alias rules; the same answer whether the address has an account or not; e-mail as a login name.
 */
import { afterAll, beforeAll, expect, setSystemTime, test } from 'bun:test'
import { stopLoginClock } from '../helpers/login-clock'
import type { TestSmtp } from '../helpers/smtp-server'
import { call, startTestApp, type TestApp } from '../helpers/test-app'
import { setOptions, withSmtp } from './mail-setup'

let app: TestApp
let smtp: TestSmtp
let root: string
beforeAll(async () => {
  app = await startTestApp()
  ;({ smtp, root } = await withSmtp(app, { RegisterEnabled: true, EmailVerificationEnabled: true, EmailPerRecipientPerHour: 3, EmailPerClientPerHour: 50 }))
  stopLoginClock(app.deps)
})
afterAll(async () => {
  setSystemTime()
  await smtp.stop()
  await app.stop()
})

const codeIn = (text: string | undefined) => /\b(\d{6})\b/.exec(text ?? '')?.[1]
const register = (username: string, email: string, code: string | undefined) =>
  call(app, 'POST', '/api/user/register', { username, password: 'pass-word-123', email, verification_code: code })

test('a code arrives in the language asked for, registers once, and is stored only hashed', async () => {
  const asked = await call(app, 'GET', '/api/verification?email=Ada@Example.com&lang=zh-CN')
  expect(asked.status).toBe(200)
  const { mail } = await smtp.next()
  expect(mail.subject).toBe('Tollgate 邮箱验证码')
  const code = codeIn(mail.text)!
  expect(mail.html).toContain(code)
  const rows = app.db.$client.query('SELECT * FROM email_codes').all() as { code_hash: string; email: string }[]
  expect(rows).toHaveLength(1)
  expect(rows[0]!.email).toBe('ada@example.com')
  expect(rows[0]!.code_hash).not.toContain(code)
  const done = await register('ada', 'ada@example.com', code)
  expect(done.status).toBe(200)
  expect((await app.deps.repos.users.findByUsername('ada'))!.email).toBe('ada@example.com')
  // replayed: the code was used up
  const again = await register('ada2', 'ada@example.com', code)
  expect(again.status).toBe(400)
  expect(again.body.data.code).toBe('verification_code_invalid')
})

test('without a code, or with a wrong one, nothing registers; the tries per code are bounded', async () => {
  expect((await register('bob', 'bob@example.com', undefined)).body.data.code).toBe('verification_code_invalid')
  expect((await call(app, 'POST', '/api/user/register', { username: 'bob', password: 'pass-word-123' })).body.data.code).toBe('email_required')
  await call(app, 'GET', '/api/verification?email=bob@example.com')
  const code = codeIn((await smtp.next()).mail.text)!
  const wrong = code === '000000' ? '111111' : '000000'
  for (let i = 0; i < 5; i++) expect((await register('bob', 'bob@example.com', wrong)).status).toBe(400) // EmailCodeMaxAttempts
  // the right code no longer works: its tries are spent
  expect((await register('bob', 'bob@example.com', code)).body.data.code).toBe('verification_code_invalid')
  expect(await app.deps.repos.users.findByUsername('bob')).toBeUndefined()
})

test('an expired code is refused (the clock moved past EmailCodeValidMinutes)', async () => {
  await call(app, 'GET', '/api/verification?email=cy@example.com')
  const code = codeIn((await smtp.next()).mail.text)!
  setSystemTime(new Date(Date.now() + 11 * 60_000))
  try {
    expect((await register('cy', 'cy@example.com', code)).body.data.code).toBe('verification_code_invalid')
  } finally {
    setSystemTime()
  }
})

test('an address with an account gets the same answer (and a mail saying so, no code); registering with it is refused after the code', async () => {
  const asked = await call(app, 'GET', '/api/verification?email=ada@example.com')
  const fresh = await call(app, 'GET', '/api/verification?email=dee@example.com')
  expect(asked.status).toBe(fresh.status)
  expect(asked.body).toEqual(fresh.body)
  const mails = [await smtp.next(), await smtp.next()]
  const toAda = mails.find((m) => JSON.stringify(m.mail.to).includes('ada@example.com'))!
  expect(codeIn(toAda.mail.text)).toBeUndefined()
  expect(toAda.mail.subject).toContain('sign-up request')
})

test('mails to one recipient per hour are bounded (429 with the wait); the count is the same for any address', async () => {
  const statuses: number[] = []
  for (let i = 0; i < 4; i++) statuses.push((await call(app, 'GET', '/api/verification?email=flood@example.com')).status)
  expect(statuses).toEqual([200, 200, 200, 429])
  const refused = await call(app, 'GET', '/api/verification?email=flood@example.com')
  expect(refused.body.data.code).toBe('mail_rate_limited')
  expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
  for (let i = 0; i < 3; i++) await smtp.next()
})

test("new-api's domain allow list and alias rule refuse before anything is sent", async () => {
  await setOptions(app, root, { EmailDomainRestrictionEnabled: true, EmailDomainWhitelist: 'example.com', EmailAliasRestrictionEnabled: true })
  const before = smtp.received.length
  const domain = await call(app, 'GET', '/api/verification?email=eve@other.org')
  expect([domain.status, domain.body.data.code]).toEqual([400, 'email_domain_not_allowed'])
  const alias = await call(app, 'GET', '/api/verification?email=eve%2Bx@example.com')
  expect([alias.status, alias.body.data.code]).toEqual([400, 'email_alias_not_allowed'])
  const invalid = await call(app, 'GET', '/api/verification?email=not-an-address')
  expect([invalid.status, invalid.body.data.code]).toEqual([400, 'invalid_email'])
  expect(smtp.received.length).toBe(before)
  await setOptions(app, root, { EmailDomainRestrictionEnabled: false, EmailAliasRestrictionEnabled: false })
})

test('the e-mail address is a login name', async () => {
  const byEmail = await call(app, 'POST', '/api/user/login', { username: 'ADA@example.com', password: 'pass-word-123' })
  expect(byEmail.status).toBe(200)
  expect(byEmail.body.data.username).toBe('ada')
  const wrong = await call(app, 'POST', '/api/user/login', { username: 'ada@example.com', password: 'wrong-password' })
  expect(wrong.status).toBe(401)
})
