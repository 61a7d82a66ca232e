/**
 * A real SMTP server for the tests (nodemailer's smtp-server): STARTTLS with the self-signed certificate for
 * localhost/127.0.0.1 under tests/fixtures/tls, AUTH required (PLAIN/LOGIN, after TLS only), every message parsed
 * with mailparser. `next()` waits for the next message (an event, never a sleep).
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { type ParsedMail, simpleParser } from 'mailparser'
import { SMTPServer } from 'smtp-server'

export const SMTP_CERT = readFileSync(join(import.meta.dir, '../fixtures/tls/smtp-test.crt'), 'utf8')
const SMTP_KEY = readFileSync(join(import.meta.dir, '../fixtures/tls/smtp-test.key'), 'utf8')

interface Received {
  mail: ParsedMail
  /** the session was under TLS when DATA came */
  secure: boolean
  user: string
}

export interface TestSmtp {
  port: number
  received: Received[]
  /** failed AUTH attempts */
  authFailures: number
  next(timeoutMs?: number): Promise<Received>
  stop(): Promise<void>
}

export async function startTestSmtp(credentials = { user: 'mailer', pass: 'smtp-pass-123' }): Promise<TestSmtp> {
  const received: Received[] = []
  const waiting: ((r: Received) => void)[] = []
  let taken = 0
  const state = { authFailures: 0 }
  const server = new SMTPServer({
    key: SMTP_KEY,
    cert: SMTP_CERT,
    authMethods: ['PLAIN', 'LOGIN'],
    logger: false,
    onAuth(auth, _session, done) {
      if (auth.username === credentials.user && auth.password === credentials.pass) return done(null, { user: auth.username })
      state.authFailures++
      done(new Error('535 authentication failed'))
    },
    onData(stream, session, done) {
      simpleParser(stream)
        .then((mail) => {
          const entry = { mail, secure: session.secure, user: String(session.user) }
          received.push(entry)
          waiting.shift()?.(entry)
          done()
        })
        .catch(done)
    },
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.server.address() as { port: number }).port
  return {
    port,
    received,
    get authFailures() {
      return state.authFailures
    },
    next(timeoutMs = 15_000) {
      const ready = received[taken]
      if (ready) {
        taken++
        return Promise.resolve(ready)
      }
      return new Promise<Received>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no mail arrived')), timeoutMs)
        waiting.push((r) => {
          clearTimeout(timer)
          taken++
          resolve(r)
        })
      })
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
