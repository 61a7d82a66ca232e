import { isUniqueViolation } from '../../db/sqlite/repos/users'
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
  if (users.count() === 0) throw new ForbiddenError('setup is not done yet: create the root user first')
  const inviter = input.aff_code ? users.findByAffCode(input.aff_code) : undefined
  if (input.aff_code && !inviter) throw new BadRequestError('field "aff_code": no user has this invite code', 'aff_code')
  if (users.findByUsername(input.username)) throw new ConflictError(`the username "${input.username}" is taken`)

  const password = await hashPassword(input.password)
  const inviterReward = deps.options.get<number>('QuotaForInviter')
  const quota = deps.options.get<number>('QuotaForNewUser') + (inviter ? deps.options.get<number>('QuotaForInvitee') : 0)
  try {
    return users.transaction(() => {
      const row = users.insert({ username: input.username, password, displayName: input.username, role: Role.user, quota, inviterId: inviter?.id ?? 0 })
      if (inviter) users.creditInviter(inviter.id, inviterReward)
      return row
    })
  } catch (error) {
    if (isUniqueViolation(error)) throw new ConflictError(`the username "${input.username}" is taken`)
    throw error
  }
}
