import type { UserRow } from '../../db/repos'
import type { AppDeps } from '../../deps'
import { BadRequestError, ForbiddenError } from '../../errors'
import { hashPassword, newPassword, verifyPassword } from './credentials'
import type { SelfUpdate } from './schemas'

/** A user's own edits. A new password needs the current one and ends every earlier session and the access token. */
export async function updateSelf(deps: AppDeps, user: UserRow, input: SelfUpdate): Promise<{ user: UserRow; passwordChanged: boolean }> {
  const { users } = deps.repos
  let row = user
  const password = newPassword('password', input.password)
  if (password) {
    if (!input.original_password) throw new BadRequestError('field "original_password": needed to set a new password', 'original_password')
    if (!(await verifyPassword(input.original_password, user.password))) {
      throw new ForbiddenError('the original password is wrong')
    }
    row = (await users.setPassword(user.id, await hashPassword(password))) ?? row
  }
  if (input.display_name !== undefined) row = (await users.update(user.id, { displayName: input.display_name })) ?? row
  return { user: row, passwordChanged: password !== undefined }
}
