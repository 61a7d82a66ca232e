import type { UserRow } from '../../db/repos'
import type { AppDeps } from '../../deps'
import { BadRequestError, ForbiddenError } from '../../errors'
import { Role, UserStatus } from '../../db/repos/user-roles'
import { findUser } from './admin'
import { assertCanActOn } from './rules'
import type { ManageInput } from './schemas'

/** new-api's POST /api/user/manage. Answers the target's role and status afterwards, as new-api does. */
export async function manageUser(deps: AppDeps, actor: UserRow, input: ManageInput): Promise<{ role: number; status: number; quota: number }> {
  const { users, tokens } = deps.repos
  const target = await findUser(deps, input.id)
  if (target.id === actor.id) throw new ForbiddenError(`you cannot ${input.action} yourself`)
  assertCanActOn(actor, target)
  let row: UserRow | undefined = target
  switch (input.action) {
    // both end every session and the access token: a re-enabled user logs in again, nothing from before revives
    case 'enable':
      if (target.status !== UserStatus.enabled) row = await users.revokeCredentials(target.id, { status: UserStatus.enabled })
      break
    case 'disable':
      row = await users.revokeCredentials(target.id, { status: UserStatus.disabled })
      break
    case 'delete':
      await users.delete(target.id)
      tokens.forgetUser(target.id)
      return { role: target.role, status: target.status, quota: target.quota }
    case 'promote':
      if (actor.role < Role.root) throw new ForbiddenError('only root can promote users to admin')
      if (target.role >= Role.admin) throw new BadRequestError('this user is already an admin')
      row = await users.update(target.id, { role: Role.admin })
      break
    case 'demote':
      if (target.role <= Role.user) throw new BadRequestError('this user is already a common user')
      row = await users.update(target.id, { role: Role.user })
      break
    case 'add_quota':
      row = await changeQuota(deps, target, input.mode ?? 'add', input.value)
      break
  }
  tokens.forgetUser(target.id)
  const after = row ?? (await findUser(deps, target.id))
  return { role: after.role, status: after.status, quota: after.quota }
}

async function changeQuota(deps: AppDeps, target: UserRow, mode: NonNullable<ManageInput['mode']>, value: number | undefined): Promise<UserRow | undefined> {
  if (value === undefined) throw new BadRequestError('field "value": the quota amount is required for add_quota', 'value')
  if (mode === 'override') {
    if (value < 0) throw new BadRequestError('field "value": must not be negative', 'value')
    return deps.repos.users.update(target.id, { quota: value })
  }
  if (value <= 0) throw new BadRequestError('field "value": must be greater than 0', 'value')
  const row = await deps.repos.users.addQuota(target.id, mode === 'add' ? value : -value)
  if (!row) throw new BadRequestError(`field "value": the user has only ${target.quota} quota to subtract from`, 'value')
  return row
}
