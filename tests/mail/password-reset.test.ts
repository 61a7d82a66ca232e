/**
 * Password reset by a mailed link, against a real SMTP server: the link works once and expires, ends every session
 * and the access token, says nothing about which addresses have accounts, and needs ServerAddress (never the Host).
 */
import { afterAll, beforeAll, expect, setSystemTime, test } from 'bun:test'
import { addUser, as, login } from '../helpers/accounts'
import type { TestSmtp } from '../helpers/smtp-server'
import { call, startTestApp, type TestApp } from '../helpers/test-app'
import { setOptions, withSmtp } from './mail-setup'

let app: TestApp
let smtp: TestSmtp
let root: string
beforeAll(async () => {
  app = await startTestApp()
  ;({ smtp, root } = await withSmtp(app))
  await addUser(app, { username: 'rita', displayName: 'rita', role: 1, email: 'rita@example.com' })
})
afterAll(async () => {
  setSystemTime()
  await smtp.stop()
  await app.stop()
})

const linkIn = (text: string | undefined) => new URL(/(https?:\/\/\S+\/user\/reset\?\S+)/.exec(text ?? '')![1]!)

test('the link (to ServerAddress, in the language asked for) sets a new password once; sessions and the access token end', async () => {
  const session = await login(app, 'rita')
  const token = (await call(app, 'GET', '/api/user/token', undefined, as(session))).body.data as string
  expect((await call(app, 'GET', '/api/user/self', undefined, { authorization: `Bearer ${token}` })).status).toBe(200)
  const asked = await call(app, 'GET', '/api/reset_password?email=RITA@example.com&lang=en', undefined, { host: 'evil.example' })
  expect(asked.status).toBe(200)
  const { mail } = await smtp.next()
  expect(mail.subject).toBe('Reset your Tollgate password')
  const link = linkIn(mail.text)
  expect(link.origin).toBe(app.url) // ServerAddress, not the Host header sent
  expect(mail.html).toContain('href=')
  const body = { email: link.searchParams.get('email'), token: link.searchParams.get('token'), password: 'brand-new-pass-1' }
  const reset = await call(app, 'POST', '/api/user/reset', body)
  expect(reset.status).toBe(200)
  expect(reset.body.data).toBeNull() // a chosen password is not echoed
  expect((await call(app, 'GET', '/api/user/self', undefined, as(session))).status).toBe(401)
  expect((await call(app, 'GET', '/api/user/self', undefined, { authorization: `Bearer ${token}` })).status).toBe(401)
  expect((await call(app, 'POST', '/api/user/login', { username: 'rita', password: 'brand-new-pass-1' })).status).toBe(200)
  // reused: refused, and the password stays
  const reused = await call(app, 'POST', '/api/user/reset', { ...body, password: 'another-pass-22' })
  expect([reused.status, reused.body.data.code]).toEqual([400, 'reset_link_invalid'])
})

test("without a password, new-api's way: a generated one is returned", async () => {
  await call(app, 'GET', '/api/reset_password?email=rita@example.com')
  const link = linkIn((await smtp.next()).mail.text)
  const reset = await call(app, 'POST', '/api/user/reset', { email: link.searchParams.get('email'), token: link.searchParams.get('token') })
  expect(reset.status).toBe(200)
  expect(typeof reset.body.data).toBe('string')
  expect((await call(app, 'POST', '/api/user/login', { username: 'rita', password: reset.body.data })).status).toBe(200)
})

test('an expired link is refused', async () => {
  await call(app, 'GET', '/api/reset_password?email=rita@example.com')
  const link = linkIn((await smtp.next()).mail.text)
  setSystemTime(new Date(Date.now() + 11 * 60_000))
  try {
    const reset = await call(app, 'POST', '/api/user/reset', { email: link.searchParams.get('email'), token: link.searchParams.get('token'), password: 'late-password-1' })
    expect([reset.status, reset.body.data.code]).toEqual([400, 'reset_link_invalid'])
  } finally {
    setSystemTime()
  }
})

test('an unknown address gets the same answer and no mail; a made-up token is refused', async () => {
  const before = smtp.received.length
  const unknown = await call(app, 'GET', '/api/reset_password?email=nobody@example.com')
  const known = await call(app, 'GET', '/api/reset_password?email=rita@example.com')
  expect(unknown.status).toBe(200)
  expect(unknown.body).toEqual(known.body)
  await smtp.next()
  expect(smtp.received.length).toBe(before + 1)
  const forged = await call(app, 'POST', '/api/user/reset', { email: 'rita@example.com', token: 'x'.repeat(43), password: 'forged-pass-1' })
  expect(forged.body.data.code).toBe('reset_link_invalid')
})

test('without ServerAddress no link is mailed (503 reset_unavailable), whatever the address', async () => {
  await setOptions(app, root, { ServerAddress: '' })
  const res = await call(app, 'GET', '/api/reset_password?email=rita@example.com')
  expect([res.status, res.body.data.code]).toEqual([503, 'reset_unavailable'])
  await setOptions(app, root, { ServerAddress: app.url })
})
