import { GatewayError } from '../errors'
import type { OptionStore } from '../options/store'

const refused = (code: string, message: string) => new GatewayError(400, code, message, 'email', undefined, { code })

/** An address as stored and compared: trimmed, lower-cased; or a 400 invalid_email. */
export function normalizeEmail(text: string): string {
  const email = text.trim().toLowerCase()
  const [local, domain, extra] = email.split('@')
  const valid =
    extra === undefined && !!local && !!domain && local.length <= 64 && email.length <= 254 && /^[^\s"(),:;<>[\\\]]+$/.test(local) && /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+$/.test(domain)
  if (!valid) throw refused('invalid_email', 'field "email": not an e-mail address')
  return email
}

/** new-api's registration rules: the domain allow list and the alias rule ('+' or '.' in the local part). */
export function checkRegistrationAddress(options: Pick<OptionStore, 'get'>, email: string): void {
  const [local, domain] = email.split('@') as [string, string]
  if (options.get<boolean>('EmailDomainRestrictionEnabled')) {
    const allowed = options
      .get<string>('EmailDomainWhitelist')
      .split(',')
      .map((d) => d.trim().toLowerCase())
    if (!allowed.includes(domain)) throw refused('email_domain_not_allowed', `addresses under ${domain} cannot register here; allowed: ${allowed.filter(Boolean).join(', ')}`)
  }
  if (options.get<boolean>('EmailAliasRestrictionEnabled') && /[+.]/.test(local)) {
    throw refused('email_alias_not_allowed', "addresses with '+' or '.' before the @ cannot register here (aliases of one mailbox)")
  }
}
