import type { UserRepo } from '../../db/repos'
import { ConflictError } from '../../errors'
import { usernameSkeleton } from './username-skeleton'

/**
 * A name a new or renamed user may take: 409 when another user has it, or one that reads the same (`Root`,
 * Cyrillic `rооt` beside `root`: username-skeleton.ts). `selfId`: the user being renamed, who may keep their own.
 * The unique `username_key` column refuses a look-alike that races past this check (as "taken").
 */
export async function assertUsernameFree(users: Pick<UserRepo, 'findByUsername' | 'findByUsernameKey'>, username: string, selfId?: number): Promise<void> {
  const same = await users.findByUsername(username)
  if (same && same.id !== selfId) throw new ConflictError(`the username "${username}" is taken`)
  const alike = await users.findByUsernameKey(usernameSkeleton(username))
  if (alike && alike.id !== selfId) throw new ConflictError(`the username "${username}" reads like one that is taken: choose another`, 'username_confusable')
}
