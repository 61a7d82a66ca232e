import type { UserRow } from '../../db/repos'
import { BadRequestError, ForbiddenError } from '../../errors'
import { Role } from '../../db/repos/user-roles'

/** Admins act only on users of a lower role; so nobody acts on root, and nobody on an equal. */
export function assertCanActOn(actor: UserRow, target: UserRow): void {
  if (actor.id === target.id) throw new ForbiddenError('use /api/user/self to change your own account')
  if (target.role >= actor.role) throw new ForbiddenError('you can only manage users of a lower role than yours')
}

/** Only the two assignable roles exist, and only a root hands out the admin role. */
export function assertAssignableRole(actor: UserRow, role: number): void {
  if (role !== Role.user && role !== Role.admin) {
    throw new BadRequestError(`field "role": must be ${Role.user} (user) or ${Role.admin} (admin)`, 'role')
  }
  if (role >= actor.role) throw new ForbiddenError('only root can create or promote admins')
}
