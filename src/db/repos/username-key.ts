import { usernameSkeleton } from '../../modules/users/username-skeleton'

/**
 * A user row or patch to write, with the look-alike key of its username beside it (`users.username_key`, unique):
 * the one place the column is filled, so no write path can leave a new name without it.
 */
export function withUsernameKey<T extends { username?: string; usernameKey?: string | null }>(row: T): T {
  return row.username === undefined ? row : { ...row, usernameKey: usernameSkeleton(row.username) }
}

/** Rows read per batch by `fillUsernameKeys` */
export const FILL_BATCH = 500
