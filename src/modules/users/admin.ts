import type { UserRow } from '../../db/repos'
import { isUniqueViolation } from '../../db/repos'
import type { AppDeps } from '../../deps'
import { ConflictError, ForbiddenError, NotFoundError } from '../../errors'
import { Role } from '../../db/repos/user-roles'
import { hashPassword, newPassword } from './credentials'
import { assertAssignableRole, assertCanActOn } from './rules'
import type { UserCreate, UserEdit } from './schemas'
import { assertUsernameFree } from './username-free'

export async function findUser(deps: AppDeps, id: number): Promise<UserRow> {
  const row = await deps.repos.users.findById(id)
  if (!row) throw new NotFoundError(`no user with id ${id}`)
  return row
}

/** The highest role `actor` may see in the user list: everyone for root, only the roles below theirs for an admin. */
const visibleMaxRole = (actor: UserRow): number | undefined => (actor.role >= Role.root ? undefined : actor.role - 1)

/** The list and search: root sees everyone; an admin sees neither root nor other admins (nor their own row). */
export function listUsers(deps: AppDeps, actor: UserRow, offset: number, limit: number, keyword?: string) {
  return deps.repos.users.list(offset, limit, keyword, visibleMaxRole(actor))
}

/** Root sees everyone; an admin sees users below them (and themselves). */
export async function viewUser(deps: AppDeps, actor: UserRow, id: number): Promise<UserRow> {
  const row = await findUser(deps, id)
  if (actor.role < Role.root && row.id !== actor.id && row.role >= actor.role) {
    throw new ForbiddenError('you can only view users of a lower role than yours')
  }
  return row
}

export async function createUser(deps: AppDeps, actor: UserRow, input: UserCreate): Promise<UserRow> {
  const role = input.role ?? Role.user
  assertAssignableRole(actor, role)
  await assertUsernameFree(deps.repos.users, input.username)
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

/** Edit a lower-role user; a new password ends their sessions and access token, and relay auth forgets their tokens. */
export async function editUser(deps: AppDeps, actor: UserRow, input: UserEdit): Promise<UserRow> {
  const target = await findUser(deps, input.id)
  assertCanActOn(actor, target)
  if (input.role !== undefined && input.role !== target.role) assertAssignableRole(actor, input.role)
  // only a new name is written (and checked): an unchanged one keeps its row's look-alike key as it is
  const username = input.username !== undefined && input.username !== target.username ? input.username : undefined
  if (username !== undefined) await assertUsernameFree(deps.repos.users, username, target.id)
  const password = newPassword('password', input.password)
  const hash = password ? await hashPassword(password) : undefined
  const row = await uniqueUsername(input.username ?? target.username, async () => {
    const patch = { username, displayName: input.display_name, group: input.group, quota: input.quota, role: input.role }
    const updated = await deps.repos.users.update(target.id, withoutUndefined(patch))
    return hash ? deps.repos.users.setPassword(target.id, hash) : updated
  })
  deps.repos.tokens.forgetUser(target.id)
  return row ?? findUser(deps, target.id)
}

export async function deleteUser(deps: AppDeps, actor: UserRow, id: number): Promise<void> {
  const target = await findUser(deps, id)
  assertCanActOn(actor, target)
  await deps.repos.users.delete(target.id)
  deps.repos.tokens.forgetUser(target.id)
}

async function uniqueUsername<T>(username: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write()
  } catch (error) {
    if (isUniqueViolation(error)) throw new ConflictError(`the username "${username}" is taken`)
    throw error
  }
}

function withoutUndefined<T extends object>(patch: T): Partial<T> {
  return Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined)) as Partial<T>
}
