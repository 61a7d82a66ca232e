import type { OptionDefinition } from './option-definition'

const port = (value: unknown) => ((value as number) < 1 || (value as number) > 65535 ? 'must be a port between 1 and 65535' : undefined)
const positive = (value: unknown) => ((value as number) < 1 ? 'must be at least 1' : undefined)
const nonNegative = (value: unknown) => ((value as number) < 0 ? 'must not be negative' : undefined)
/** A host name or IP literal, no scheme, port or path (the port has its own option). */
const hostName = (value: unknown) => {
  const text = value as string
  if (text === '') return undefined
  return /^[A-Za-z0-9.-]{1,253}$|^\[?[0-9A-Fa-f:.]{2,45}\]?$/.test(text) ? undefined : 'must be a host name or IP address without scheme, port or path (like smtp.example.com)'
}
/** `Name <addr@host>` or `addr@host`, or '' (then SMTPAccount sends). */
const mailbox = (value: unknown) => {
  const text = value as string
  if (text === '' || /^([^<>\r\n]{0,100}<)?[^\s<>@]+@[^\s<>@]+\.[^\s<>@]+>?$/.test(text)) return undefined
  return 'must be an e-mail address (or Name <address>)'
}
/** new-api's comma-separated list of domains, each a plain host name. */
const domainList = (value: unknown) => {
  const domains = (value as string).split(',').map((d) => d.trim()).filter(Boolean)
  const bad = domains.find((d) => !/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+$/i.test(d))
  return bad ? `has "${bad}", not a domain (give gmail.com,example.org)` : undefined
}

/**
 * E-mail (SMTP, verification codes, reset links) and Turnstile, under new-api's option names. `secret` options are
 * sealed with the crypto secret before they are stored and never shown (options/secret-options.ts).
 */
export const MAIL_OPTIONS: Record<string, OptionDefinition> = {
  SMTPServer: { type: 'string', default: '', description: 'SMTP server host name (empty: no mail is sent)', check: hostName },
  SMTPPort: { type: 'integer', default: '587', description: 'SMTP port: 587 (STARTTLS) or 465 (TLS from the first byte)', check: port },
  SMTPSSLEnabled: { type: 'boolean', default: 'false', description: 'TLS from the first byte (port 465 always); otherwise STARTTLS, required unless the server is on loopback' },
  SMTPAccount: { type: 'string', default: '', description: 'SMTP user name (AUTH); empty: no AUTH' },
  SMTPFrom: { type: 'string', default: '', description: 'sender address (empty: SMTPAccount)', check: mailbox },
  SMTPToken: { type: 'string', default: '', description: 'SMTP password or token; stored encrypted, never shown', secret: true },
  EmailVerificationEnabled: { type: 'boolean', default: 'false', description: 'registration needs an e-mail address and the code mailed to it' },
  EmailDomainRestrictionEnabled: { type: 'boolean', default: 'false', description: 'only addresses under EmailDomainWhitelist may register' },
  EmailDomainWhitelist: { type: 'string', default: 'gmail.com,163.com,126.com,qq.com,outlook.com,hotmail.com,icloud.com,yahoo.com,foxmail.com', description: 'comma-separated domains allowed when EmailDomainRestrictionEnabled is on', check: domainList },
  EmailAliasRestrictionEnabled: { type: 'boolean', default: 'false', description: "refuse addresses whose local part has '+' or '.' (aliases of one mailbox)" },
  EmailCodeValidMinutes: { type: 'integer', default: '10', description: 'how long a verification code or a reset link works', check: positive },
  EmailCodeMaxAttempts: { type: 'integer', default: '5', description: 'wrong tries a code (or reset link) allows before it is void', check: positive },
  EmailPerRecipientPerHour: { type: 'integer', default: '5', description: 'codes and reset mails sent to one address per hour (0 = no limit)', check: nonNegative },
  EmailPerClientPerHour: { type: 'integer', default: '20', description: 'codes and reset mails asked for from one client address (an IPv6 /64) per hour (0 = no limit)', check: nonNegative },
  TurnstileCheckEnabled: { type: 'boolean', default: 'false', description: 'Cloudflare Turnstile in front of login, registration, verification mail and password reset' },
  TurnstileSiteKey: { type: 'string', default: '', description: "Turnstile site key (public: the console's widget uses it)" },
  TurnstileSecretKey: { type: 'string', default: '', description: 'Turnstile secret key; stored encrypted, never shown', secret: true },
}
