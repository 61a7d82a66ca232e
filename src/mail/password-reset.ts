import { GatewayError } from '../errors'
import { UserStatus } from '../db/repos/user-roles'
import { normalizeEmail } from './addresses'
import { issueCode, newResetToken, useCode } from './codes'
import type { MailFlowDeps } from './flows'
import { mailNotConfigured } from './mailer'
import { countMailRequest } from './send-limits'
import { type MailLocale, resetLinkMail } from './templates'

/**
 * GET /api/reset_password: a link to `${ServerAddress}/user/reset?email=…&token=…` (new-api's page) for the one
 * enabled account with this address. The answer is the same whether there is one or not, and the mail leaves in
 * the background so the time taken says nothing either. The link's host is the ServerAddress option, never the
 * request's Host header (which anyone can set, and would then receive the token).
 */
export async function requestPasswordReset(deps: MailFlowDeps, input: { email: string; locale: MailLocale; ip: string }): Promise<void> {
  if (!deps.mailer.configured()) throw mailNotConfigured()
  const server = deps.options.get<string>('ServerAddress')
  if (!server) throw new GatewayError(503, 'reset_unavailable', 'password reset by mail needs the ServerAddress option (the address the link opens): ask the administrator', undefined, undefined, { code: 'reset_unavailable' })
  const email = normalizeEmail(input.email)
  await countMailRequest(deps, input.ip, email)
  const owners = await deps.users.findByEmail(email, 2)
  const owner = owners.length === 1 && owners[0]!.status === UserStatus.enabled ? owners[0]! : undefined
  if (!owner) return
  void mailResetLink(deps, { ...input, email, userId: owner.id, server }).catch((error: unknown) => deps.onBackgroundFailure('password reset mail', error))
}

async function mailResetLink(deps: MailFlowDeps, input: { email: string; locale: MailLocale; userId: number; server: string }): Promise<void> {
  const token = newResetToken()
  const minutes = deps.options.get<number>('EmailCodeValidMinutes')
  await issueCode({ repo: deps.codes, cryptoSecret: deps.cryptoSecret }, { purpose: 'reset', email: input.email, code: token, userId: input.userId, validMinutes: minutes })
  const link = `${input.server}/user/reset?${new URLSearchParams({ email: input.email, token })}`
  await deps.mailer.send(resetLinkMail(input.email, input.locale, deps.options.get<string>('SystemName'), link, minutes))
}

const linkRefused = () => new GatewayError(400, 'reset_link_invalid', 'this reset link is wrong, expired or used: ask for a new one', 'token', undefined, { code: 'reset_link_invalid' })

/**
 * POST /api/user/reset: the link's email and token set a new password (the one given, or, as new-api does, a
 * generated one that is returned). The link works once; the new password ends every session and the access
 * token, as any password change does.
 */
export async function completePasswordReset(
  deps: MailFlowDeps,
  input: { email: string; token: string; password?: string },
  hash: (password: string) => Promise<string>,
): Promise<{ userId: number; generated?: string }> {
  let email: string
  try {
    email = normalizeEmail(input.email)
  } catch {
    throw linkRefused()
  }
  const used = await useCode({ repo: deps.codes, cryptoSecret: deps.cryptoSecret }, { purpose: 'reset', email, code: input.token, maxAttempts: deps.options.get<number>('EmailCodeMaxAttempts') })
  const user = used && (await deps.users.findById(used.userId))
  // the account's address may have changed (or it was disabled) since the mail left
  if (!user || user.email.toLowerCase() !== email || user.status !== UserStatus.enabled) throw linkRefused()
  const generated = input.password ? undefined : newResetToken().slice(0, 16)
  await deps.users.setPassword(user.id, await hash(input.password ?? generated!))
  return { userId: user.id, generated }
}
