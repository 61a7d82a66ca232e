/**
 * The outbound guard's SMTP side: mail leaves through here only (tests/outbound/one-dialer.test.ts). As for HTTP
 * (`./fetch.ts`), the server's name is resolved once and every address judged, then nodemailer connects to the
 * address that was checked while TLS (SNI and the certificate check) still names the host root typed. The SMTP
 * server is root's own setting, so private and loopback addresses are allowed (a relay on the LAN, a local
 * Postfix); link-local and cloud metadata addresses never are.
 */
import { refusal } from './address-class'
import { OutboundRefused } from './fetch'
import { type Resolver, sharedResolver } from './resolver'

export interface SmtpSettings {
  server: string
  port: number
  /** TLS from the first byte (465); otherwise STARTTLS, required unless the server is on loopback */
  implicitTls: boolean
  /** '' = no AUTH */
  account: string
  password: string
  /** the envelope sender and From header */
  from: string
}

export interface MailMessage {
  to: string
  subject: string
  text: string
  html: string
}

export interface SmtpDialOptions {
  resolver?: Resolver
  /** extra trusted certificates (PEM), for a relay with a private CA (tests: their self-signed one) */
  ca?: string
}

/** The whole session (connect, greeting, TLS, AUTH, DATA) gives up after this long. */
const SMTP_TIMEOUT_MS = 20_000

/** Send one message; throws OutboundRefused (nothing sent) or nodemailer's error naming the SMTP step that failed. */
export async function sendSmtp(settings: SmtpSettings, message: MailMessage, options: SmtpDialOptions = {}): Promise<void> {
  const host = settings.server.replace(/^\[|\]$/g, '')
  const pending = (options.resolver ?? sharedResolver).resolve(settings.server.includes(':') && !settings.server.startsWith('[') ? `[${host}]` : settings.server)
  const resolved = pending instanceof Promise ? await pending : pending
  if (resolved.failure) throw new OutboundRefused(`SMTP server refused: ${resolved.failure}`)
  const refused = refusal(host, resolved.verdict, true, resolved.decidedBy)
  if (refused) throw new OutboundRefused(`SMTP server refused: ${refused}`)
  const isName = resolved.connectTo !== ''
  const loopback = resolved.verdict.kind === 'a loopback address'
  // nodemailer is loaded on first use: an instance that sends no mail never pays its memory
  const { createTransport } = await import('nodemailer')
  const transport = createTransport({
    host: resolved.connectTo || host,
    port: settings.port,
    secure: settings.implicitTls,
    // the password never crosses the wire in the clear: STARTTLS or nothing, except to this machine itself
    requireTLS: !settings.implicitTls && !loopback,
    auth: settings.account ? { user: settings.account, pass: settings.password } : undefined,
    tls: { servername: isName ? host : undefined, ca: options.ca, minVersion: 'TLSv1.2' },
    connectionTimeout: SMTP_TIMEOUT_MS,
    greetingTimeout: SMTP_TIMEOUT_MS,
    socketTimeout: SMTP_TIMEOUT_MS,
    disableFileAccess: true,
    disableUrlAccess: true,
  })
  try {
    await transport.sendMail({ from: settings.from, to: message.to, subject: message.subject, text: message.text, html: message.html })
  } finally {
    transport.close()
  }
}
