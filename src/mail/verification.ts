import { GatewayError } from '../errors'
import { checkRegistrationAddress, normalizeEmail } from './addresses'
import { issueCode, newVerificationCode, useCode } from './codes'
import type { MailFlowDeps } from './flows'
import { mailNotConfigured } from './mailer'
import { countMailRequest } from './send-limits'
import { accountExistsMail, type MailLocale, verificationCodeMail } from './templates'

/**
 * GET /api/verification: a code for registering with `email`. An address that already has an account gets a mail
 * saying so instead of a code: the answer (and the work done) is the same either way, so nobody learns who is here.
 */
export async function sendVerificationCode(deps: MailFlowDeps, input: { email: string; locale: MailLocale; ip: string }): Promise<void> {
  if (!deps.mailer.configured()) throw mailNotConfigured()
  const email = normalizeEmail(input.email)
  checkRegistrationAddress(deps.options, email)
  await countMailRequest(deps, input.ip, email)
  const system = deps.options.get<string>('SystemName')
  const taken = (await deps.users.findByEmail(email, 1)).length > 0
  if (taken) return deps.mailer.send(accountExistsMail(email, input.locale, system))
  const code = newVerificationCode()
  const minutes = deps.options.get<number>('EmailCodeValidMinutes')
  await issueCode({ repo: deps.codes, cryptoSecret: deps.cryptoSecret }, { purpose: 'register', email, code, validMinutes: minutes })
  await deps.mailer.send(verificationCodeMail(email, input.locale, system, code, minutes))
}

const codeRefused = () => new GatewayError(400, 'verification_code_invalid', 'the verification code is wrong, expired or used up: ask for a new one', 'verification_code', undefined, { code: 'verification_code_invalid' })

/**
 * With EmailVerificationEnabled, a registration's address after its code (used up here) and new-api's rules; the
 * address is then refused if an account has it (only its owner, who read the code, learns that). Without: ''.
 */
export async function verifiedRegistrationEmail(deps: Pick<MailFlowDeps, 'options' | 'codes' | 'cryptoSecret' | 'users'>, input: { email?: string; code?: string }): Promise<string> {
  if (!deps.options.get<boolean>('EmailVerificationEnabled')) return ''
  if (!input.email) throw new GatewayError(400, 'email_required', 'field "email": required on this instance (with the code mailed to it)', 'email', undefined, { code: 'email_required' })
  const email = normalizeEmail(input.email)
  checkRegistrationAddress(deps.options, email)
  if (!input.code) throw codeRefused()
  const used = await useCode({ repo: deps.codes, cryptoSecret: deps.cryptoSecret }, { purpose: 'register', email, code: input.code.trim(), maxAttempts: deps.options.get<number>('EmailCodeMaxAttempts') })
  if (!used) throw codeRefused()
  if ((await deps.users.findByEmail(email, 1)).length > 0) throw new GatewayError(409, 'email_taken', 'an account already has this e-mail address: sign in, or reset its password', 'email', undefined, { code: 'email_taken' })
  return email
}
