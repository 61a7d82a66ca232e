import type { UserRow } from '../../db/repos'
import { isUniqueViolation } from '../../db/sqlite/repos/users'
import type { AppDeps } from '../../deps'
import { ConflictError, ForbiddenError, NotFoundError } from '../../errors'
import { Role } from '../../plugins/session'
import { hashPassword, newPassword } from './credentials'
import { assertAssignableRole, assertCanActOn } from './rules'
import type { UserCreate, UserEdit } from './schemas'

export function findUser(deps: AppDeps, id: number): UserRow {
  const row = deps.repos.users.findById(id)
  if (!row) throw new NotFoundError(`no user with id ${id}`)
  return row
}

/** Root sees everyone; an admin sees users below them (and themselves). */
export function viewUser(deps: AppDeps, actor: UserRow, id: number): UserRow {
  const row = findUser(deps, id)
  if (actor.role < Role.root && row.id !== actor.id && row.role >= actor.role) {
    throw new ForbiddenError('you can only view users of a lower role than yours')
  }
  return row
}

export async function createUser(deps: AppDeps, actor: UserRow, input: UserCreate): Promise<UserRow> {
  const role = input.role ?? Role.user
  assertAssignableRole(actor, role)
  if (deps.repos.users.findByUsername(input.username)) throw new ConflictError(`the username "${input.username}" is taken`)
  const password = await hashPassword(input.password)
  return uniqueUsername(input.username, () =>
    deps.repos.users.insert({
      username: input.username,
      password,
      displayName: input.display_name || input.username,
      role,
      group: input.group ?? 'default',
      quota: input.quota ?? 0,
    }),
  )
}

/** Edit a lower-role user; a new password revokes their sessions, and relay auth forgets their tokens. */
export async function editUser(deps: AppDeps, actor: UserRow, input: UserEdit): Promise<UserRow> {
  const target = findUser(deps, input.id)
  assertCanActOn(actor, target)
  if (input.role !== undefined && input.role !== target.role) assertAssignableRole(actor, input.role)
  if (input.username !== undefined && input.username !== target.username && deps.repos.users.findByUsername(input.username)) {
    throw new ConflictError(`the username "${input.username}" is taken`)
  }
  const password = newPassword('password', input.password)
  const hash = password ? await hashPassword(password) : undefined
  const row = uniqueUsername(input.username ?? target.username, () => {
    const patch = { username: input.username, displayName: input.display_name, group: input.group, quota: input.quota, role: input.role }
    const updated = deps.repos.users.update(target.id, withoutUndefined(patch))
    return hash ? deps.repos.users.setPassword(target.id, hash) : updated
  })
  deps.repos.tokens.forgetUser(target.id)
  return row ?? findUser(deps, target.id)
}

export function deleteUser(deps: AppDeps, actor: UserRow, id: number): void {
  const target = findUser(deps, id)
  assertCanActOn(actor, target)
  deps.repos.users.delete(target.id)
  deps.repos.tokens.forgetUser(target.id)
}

function uniqueUsername<T>(username: string, write: () => T): T {
  try {
    return write()
  } catch (error) {
    if (isUniqueViolation(error)) throw new ConflictError(`the username "${username}" is taken`)
    throw error
  }
}

function withoutUndefined<T extends object>(patch: T): Partial<T> {
  return Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined)) as Partial<T>
}
