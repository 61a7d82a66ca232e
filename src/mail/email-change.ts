import { GatewayError } from '../errors'
import type { UserRepo } from '../db/repos'
import { checkRegistrationAddress, normalizeEmail } from './addresses'
import { issueCode, newVerificationCode, useCode } from './codes'
import type { MailFlowDeps } from './flows'
import { mailNotConfigured } from './mailer'
import { countMailRequest } from './send-limits'
import { accountExistsMail, emailChangeCodeMail, type MailLocale } from './templates'

const codeRefused = () => new GatewayError(400, 'verification_code_invalid', 'the verification code is wrong, expired or used up: ask for a new one', 'code', undefined, { code: 'verification_code_invalid' })

/**
 * A code to the new address, for this user only (the caller checked secure verification). new-api's address rules
 * and the mail limits apply; an address another account has gets the "already has an account" mail instead of a
 * code, and the same answer, so the route tells nobody who is here.
 */
export async function sendEmailChangeCode(deps: MailFlowDeps, input: { userId: number; email: string; locale: MailLocale; ip: string }): Promise<void> {
  if (!deps.mailer.configured()) throw mailNotConfigured()
  const email = normalizeEmail(input.email)
  checkRegistrationAddress(deps.options, email)
  await countMailRequest(deps, input.ip, email)
  const system = deps.options.get<string>('SystemName')
  if ((await deps.users.findByEmail(email, 1)).length > 0) return deps.mailer.send(accountExistsMail(email, input.locale, system))
  const code = newVerificationCode()
  const minutes = deps.options.get<number>('EmailCodeValidMinutes')
  await issueCode({ repo: deps.codes, cryptoSecret: deps.cryptoSecret }, { purpose: 'email_change', email, code, userId: input.userId, validMinutes: minutes })
  await deps.mailer.send(emailChangeCodeMail(email, input.locale, system, code, minutes))
}

/**
 * The change: the code mailed to this address for this user (used up here, its tries counted), then the address
 * stored, unless another account took it meanwhile (409 email_taken).
 */
export async function changeEmail(
  deps: Pick<MailFlowDeps, 'options' | 'codes' | 'cryptoSecret'> & { users: Pick<UserRepo, 'findByEmail' | 'update'> },
  input: { userId: number; email: string; code: string },
): Promise<string> {
  const email = normalizeEmail(input.email)
  const row = await useCode({ repo: deps.codes, cryptoSecret: deps.cryptoSecret }, { purpose: 'email_change', email, code: input.code.trim(), maxAttempts: deps.options.get<number>('EmailCodeMaxAttempts') })
  if (!row || row.userId !== input.userId) throw codeRefused()
  if ((await deps.users.findByEmail(email, 1)).some((u) => u.id !== input.userId)) {
    throw new GatewayError(409, 'email_taken', 'another account has this e-mail address now', 'email', undefined, { code: 'email_taken' })
  }
  await deps.users.update(input.userId, { email })
  return email
}
