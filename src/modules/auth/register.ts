import { isUniqueViolation } from '../../db/repos'
import type { UserRow } from '../../db/repos'
import type { AppDeps } from '../../deps'
import { BadRequestError, ConflictError, ForbiddenError } from '../../errors'
import { Role } from '../../plugins/session'
import { hashPassword } from '../users/credentials'

/**
 * Self-registration, when the RegisterEnabled option allows it. A known aff_code makes its owner the
 * inviter: the new user, the inviter's reward and the invitee's bonus are written in one transaction.
 */
export async function register(
  deps: AppDeps,
  input: { username: string; password: string; aff_code?: string },
): Promise<UserRow> {
  const { users } = deps.repos
  if (!deps.options.get<boolean>('RegisterEnabled')) throw new ForbiddenError('registration is disabled on this instance')
  if ((await users.count()) === 0) throw new ForbiddenError('setup is not done yet: create the root user first')
  const inviter = input.aff_code ? await users.findByAffCode(input.aff_code) : undefined
  if (input.aff_code && !inviter) throw new BadRequestError('field "aff_code": no user has this invite code', 'aff_code')
  if (await users.findByUsername(input.username)) throw new ConflictError(`the username "${input.username}" is taken`)

  const password = await hashPassword(input.password)
  const inviterReward = deps.options.get<number>('QuotaForInviter')
  const quota = deps.options.get<number>('QuotaForNewUser') + (inviter ? deps.options.get<number>('QuotaForInvitee') : 0)
  try {
    const user = { username: input.username, password, displayName: input.username, role: Role.user, quota, inviterId: inviter?.id ?? 0 }
    return await users.insert(user, inviter && { id: inviter.id, reward: inviterReward })
  } catch (error) {
    if (isUniqueViolation(error)) throw new ConflictError(`the username "${input.username}" is taken`)
    throw error
  }
}
