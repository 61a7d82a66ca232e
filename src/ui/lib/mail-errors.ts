import type { MessageKey } from '../i18n'

/** The mail and Turnstile refusals' stable codes → the catalog's words. */
const KEYS: Record<string, MessageKey> = {
  turnstile_missing: 'mail.error.turnstileMissing',
  turnstile_failed: 'mail.error.turnstileFailed',
  turnstile_unavailable: 'mail.error.turnstileUnavailable',
  verification_code_invalid: 'mail.error.codeInvalid',
  reset_link_invalid: 'mail.error.linkInvalid',
  mail_rate_limited: 'mail.error.rateLimited',
  mail_not_configured: 'mail.error.notConfigured',
  email_taken: 'mail.error.emailTaken',
  email_domain_not_allowed: 'mail.error.emailDomain',
  email_alias_not_allowed: 'mail.error.emailAlias',
  invalid_email: 'mail.error.invalidEmail',
  email_required: 'mail.error.invalidEmail',
  reset_unavailable: 'mail.error.resetUnavailable',
}

export function mailErrorKey(code: string | undefined): MessageKey | undefined {
  return code ? KEYS[code] : undefined
}
