import { waitInWords } from '../../coord/limit-errors'
import { isUniqueViolation } from '../../db/repos'
import type { UserRow } from '../../db/repos'
import type { AppDeps } from '../../deps'
import { BadRequestError, ConflictError, ForbiddenError, RateLimitError } from '../../errors'
import { Role } from '../../db/repos/user-roles'
import { hashPassword } from '../users/credentials'
import { assertUsernameFree } from '../users/username-free'
import { addressGroup } from './login-keys'
import { verifiedRegistrationEmail } from '../../mail/verification'

const HOUR = 3600

/**
 * Self-registration, when the RegisterEnabled option allows it. A known aff_code makes its owner the
 * inviter: the new user, the inviter's reward and the invitee's bonus are written in one transaction. A sign-up
 * that gets as far as the (costly) password hash counts against its address (RegisterLimitPerHour); the
 * inviter is rewarded for at most QuotaForInviterMaxInvitees invitees, later ones register all the same.
 */
export async function register(
  deps: AppDeps,
  input: { username: string; password: string; aff_code?: string; email?: string; verification_code?: string; ip: string },
  mail: Parameters<typeof verifiedRegistrationEmail>[0],
): Promise<UserRow> {
  const { users } = deps.repos
  if (!deps.options.get<boolean>('RegisterEnabled')) throw new ForbiddenError('registration is disabled on this instance')
  if ((await users.count()) === 0) throw new ForbiddenError('setup is not done yet: create the root user first')
  const inviter = input.aff_code ? await users.findByAffCode(input.aff_code) : undefined
  if (input.aff_code && !inviter) throw new BadRequestError('field "aff_code": no user has this invite code', 'aff_code')
  await assertUsernameFree(users, input.username)
  // EmailVerificationEnabled: the mailed code, used up here, after the checks that cost nothing ('' when off)
  const email = await verifiedRegistrationEmail(mail, { email: input.email, code: input.verification_code })
  await countSignUp(deps, input.ip)

  const password = await hashPassword(input.password)
  const reward = { reward: deps.options.get<number>('QuotaForInviter'), maxRewarded: deps.options.get<number>('QuotaForInviterMaxInvitees') }
  const quota = deps.options.get<number>('QuotaForNewUser') + (inviter ? deps.options.get<number>('QuotaForInvitee') : 0)
  try {
    const user = { username: input.username, password, displayName: input.username, role: Role.user, quota, inviterId: inviter?.id ?? 0, email }
    return await users.insert(user, inviter && { id: inviter.id, ...reward })
  } catch (error) {
    if (isUniqueViolation(error)) throw new ConflictError(`the username "${input.username}" is taken`)
    throw error
  }
}

/** One sign-up from this address (an IPv6 /64) this hour, across nodes, or 429 with the wait. */
export async function countSignUp(deps: AppDeps, ip: string): Promise<void> {
  const limit = deps.options.get<number>('RegisterLimitPerHour')
  if (limit === 0) return
  const hit = await deps.coord.windowHit([`signup:${addressGroup(ip)}`], limit, HOUR)
  if (!hit.ok) throw new RateLimitError(`too many sign-ups from this address: try again in ${waitInWords(hit.retryAfter)}`, hit.retryAfter, 'signup_rate_limited')
}
