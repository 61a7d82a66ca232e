import type { OptionStore } from '../options/store'
import { openSecretOption } from '../options/secret-options'
import { type MailMessage, type SmtpDialOptions, type SmtpSettings, sendSmtp } from '../outbound/smtp'
import { GatewayError } from '../errors'

export interface Mailer {
  /** SMTPServer is set (else every mail route answers 409 mail_not_configured: the instance's state, not a server failure) */
  configured(): boolean
  /** Send now through the outbound guard; throws GatewayError 502 mail_send_failed naming the SMTP step that failed. */
  send(message: MailMessage): Promise<void>
}

export interface MailerPieces {
  options: Pick<OptionStore, 'get'>
  cryptoSecret: string
  dial?: SmtpDialOptions
}

/** The SMTP options (new-api's names) as one connection's settings; the password opened just for it. */
async function smtpSettings(pieces: MailerPieces): Promise<SmtpSettings> {
  const { options } = pieces
  const port = options.get<number>('SMTPPort')
  const account = options.get<string>('SMTPAccount')
  return {
    server: options.get<string>('SMTPServer'),
    port,
    implicitTls: options.get<boolean>('SMTPSSLEnabled') || port === 465,
    account,
    password: await openSecretOption(pieces.cryptoSecret, options, 'SMTPToken'),
    from: options.get<string>('SMTPFrom') || account,
  }
}

export function createMailer(pieces: MailerPieces): Mailer {
  return {
    configured: () => pieces.options.get<string>('SMTPServer') !== '',
    async send(message) {
      if (!pieces.options.get<string>('SMTPServer')) throw mailNotConfigured()
      const settings = await smtpSettings(pieces)
      if (!settings.from) throw new GatewayError(409, 'mail_not_configured', 'set SMTPFrom (or SMTPAccount) first: mail needs a sender', undefined, undefined, { code: 'mail_not_configured' })
      try {
        await sendSmtp(settings, message, pieces.dial)
      } catch (error) {
        // the server's reply (535 …) or the refusal, never the password: nodemailer's messages do not carry it
        const reason = (error as Error).message?.slice(0, 300) ?? String(error)
        throw new GatewayError(502, 'mail_send_failed', `the mail could not be sent: ${reason}`, undefined, undefined, { code: 'mail_send_failed' })
      }
    },
  }
}

export function mailNotConfigured(): GatewayError {
  return new GatewayError(409, 'mail_not_configured', 'this instance sends no mail: root has not set up SMTP', undefined, undefined, { code: 'mail_not_configured' })
}
