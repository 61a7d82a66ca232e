import { createMailer } from '../../src/mail/mailer'
import { as, login } from '../helpers/accounts'
import { startTestSmtp, SMTP_CERT, type TestSmtp } from '../helpers/smtp-server'
import { call, type TestApp } from '../helpers/test-app'

const SMTP_USER = 'mailer'
export const SMTP_PASS = 'smtp-pass-123'

/** Root's options through the API (as the console saves them). */
export async function setOptions(app: TestApp, cookie: string, values: Record<string, unknown>): Promise<void> {
  for (const [key, value] of Object.entries(values)) {
    const res = await call(app, 'PUT', '/api/option/', { key, value }, as(cookie))
    if (res.status !== 200) throw new Error(`option ${key}: ${res.status} ${JSON.stringify(res.body)}`)
  }
}

/**
 * A real SMTP server (STARTTLS, AUTH) and the app's SMTP options pointing at it by name (`localhost`, checked by
 * the outbound guard); the app's mailer trusts the test certificate, as NODE_EXTRA_CA_CERTS would make it.
 */
export async function withSmtp(app: TestApp, extra: Record<string, unknown> = {}): Promise<{ smtp: TestSmtp; root: string }> {
  const smtp = await startTestSmtp({ user: SMTP_USER, pass: SMTP_PASS })
  const root = await login(app)
  await setOptions(app, root, {
    SMTPServer: 'localhost',
    SMTPPort: smtp.port,
    SMTPAccount: SMTP_USER,
    SMTPFrom: 'Tollgate <noreply@example.com>',
    SMTPToken: SMTP_PASS,
    ServerAddress: app.url,
    ...extra,
  })
  app.deps.mailer = createMailer({ options: app.deps.options, cryptoSecret: app.deps.secrets.crypto, dial: { ca: SMTP_CERT } })
  return { smtp, root }
}
