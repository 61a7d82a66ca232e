/**
 * SMTP settings under new-api's option names: the password sealed at rest and never shown (nor logged), a test mail
 * over STARTTLS with AUTH to a real SMTP server, and the outbound guard's address check before any connection.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { as, login } from '../helpers/accounts'
import type { TestSmtp } from '../helpers/smtp-server'
import { call, startTestApp, type TestApp } from '../helpers/test-app'
import { setOptions, SMTP_PASS, withSmtp } from './mail-setup'

let app: TestApp
let smtp: TestSmtp
let root: string
beforeAll(async () => {
  app = await startTestApp()
  ;({ smtp, root } = await withSmtp(app))
})
afterAll(async () => {
  await smtp.stop()
  await app.stop()
})

test('the SMTP password is stored sealed, shown as configured but empty, and kept out of the manage log', async () => {
  const stored = (await app.deps.repos.options.all()).SMTPToken!
  expect(stored.startsWith('v1:')).toBe(true)
  expect(stored).not.toContain(SMTP_PASS)
  const listed = await call(app, 'GET', '/api/option/', undefined, as(root))
  const token = listed.body.data.find((o: { key: string }) => o.key === 'SMTPToken')
  expect(token).toMatchObject({ value: '', configured: true })
  expect(JSON.stringify(listed.body)).not.toContain(SMTP_PASS)
  const saved = await call(app, 'PUT', '/api/option/', { key: 'SMTPToken', value: SMTP_PASS }, as(root))
  expect(saved.body.data).toEqual({ key: 'SMTPToken', value: '', configured: true })
  await app.deps.metering.logs.flush?.()
  const logs = app.db.$client.query("SELECT other FROM logs WHERE content LIKE 'option:%'").all() as { other: string }[]
  expect(logs.length).toBeGreaterThan(0)
  expect(logs.some((l) => l.other.includes('[redacted]'))).toBe(true)
  expect(logs.some((l) => l.other.includes(SMTP_PASS))).toBe(false)
})

test('root sends a test mail: STARTTLS, AUTH with the stored password, text and HTML, in the language asked for', async () => {
  const sent = await call(app, 'POST', '/api/mail/test', { email: 'Root@Example.com', lang: 'zh-CN' }, as(root))
  expect(sent.status).toBe(200)
  const { mail, secure, user } = await smtp.next()
  expect(secure).toBe(true)
  expect(user).toBe('mailer')
  expect(mail.to && 'text' in mail.to ? mail.to.text : '').toBe('root@example.com')
  expect(mail.from?.value[0]?.address).toBe('noreply@example.com')
  expect(mail.subject).toBe('Tollgate 测试邮件')
  expect(mail.text).toContain('SMTP')
  expect(mail.html).toContain('<p>')
})

test('only root may send a test mail', async () => {
  const { addUser } = await import('../helpers/accounts')
  await addUser(app, { username: 'plain', displayName: 'plain', role: 1 })
  const cookie = await login(app, 'plain')
  expect((await call(app, 'POST', '/api/mail/test', { email: 'x@example.com' }, as(cookie))).status).toBe(403)
})

test('a wrong password is the SMTP server\'s refusal, as a 502 with a stable code', async () => {
  await setOptions(app, root, { SMTPToken: 'wrong-password' })
  const sent = await call(app, 'POST', '/api/mail/test', { email: 'root@example.com' }, as(root))
  expect(sent.status).toBe(502)
  expect(sent.body.data.code).toBe('mail_send_failed')
  expect(sent.body.message).not.toContain('wrong-password')
  expect(smtp.authFailures).toBeGreaterThan(0)
  await setOptions(app, root, { SMTPToken: SMTP_PASS })
})

test('the outbound guard refuses a metadata address before any connection', async () => {
  await setOptions(app, root, { SMTPServer: '169.254.169.254' })
  const sent = await call(app, 'POST', '/api/mail/test', { email: 'root@example.com' }, as(root))
  expect(sent.status).toBe(502)
  expect(sent.body.message).toContain('metadata')
  await setOptions(app, root, { SMTPServer: 'localhost' })
})

test('bad settings are refused by their checks; no SMTP server means 409 mail_not_configured', async () => {
  expect((await call(app, 'PUT', '/api/option/', { key: 'SMTPPort', value: 70000 }, as(root))).status).toBe(400)
  expect((await call(app, 'PUT', '/api/option/', { key: 'SMTPServer', value: 'smtp://x/y' }, as(root))).status).toBe(400)
  expect((await call(app, 'PUT', '/api/option/', { key: 'SMTPFrom', value: 'not an address' }, as(root))).status).toBe(400)
  await setOptions(app, root, { SMTPServer: '' })
  const sent = await call(app, 'POST', '/api/mail/test', { email: 'root@example.com' }, as(root))
  expect(sent.status).toBe(409)
  expect(sent.body.data.code).toBe('mail_not_configured')
  await setOptions(app, root, { SMTPServer: 'localhost' })
})
