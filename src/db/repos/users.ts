import type { NewUser, Page, UserPatch, UserRow } from './rows'

export type { NewUser, UserPatch, UserRow } from './rows'

/** The inviter of a self-registered user, credited in the same transaction as the insert. */
export interface InviterCredit {
  id: number
  /** added to the inviter's pending and lifetime invitation quota; the invitation count goes up by one */
  reward: number
  /** the reward is paid only while the inviter has fewer invitees than this (checked in the UPDATE; 0: always) */
  maxRewarded: number
}

/**
 * Users. Every method that reaches the database is async. Relay auth and the session check read a user by
 * id on every request, so a dialect keeps the rows it has read in memory, refreshed by its own writes:
 * `cachedById` answers from there alone, synchronously (undefined: not in memory, call `findById`).
 */
export interface UserRepo {
  /** The user as held in memory, or undefined when it is not (which says nothing about the database). */
  cachedById(id: number): UserRow | undefined
  /** The cached row, or else the stored one (then cached). */
  findById(id: number): Promise<UserRow | undefined>
  /** Drop a user from memory after a change made elsewhere (the next read loads it). */
  forget(id: number): void
  /** Drop every cached user (another node wrote, and which rows is not known: a missed invalidation). */
  forgetAll(): void

  findByUsername(username: string): Promise<UserRow | undefined>
  /** The user whose name has this look-alike key (modules/users/username-skeleton.ts), if any. */
  findByUsernameKey(key: string): Promise<UserRow | undefined>
  /**
   * Give every user without one the look-alike key of their name (rows from before the column, or imported),
   * except where another user has that key already: those stay without. Returns how many were filled.
   */
  fillUsernameKeys(): Promise<number>
  /** The users whose e-mail is this address (compared lower-cased), at most `limit` of them. */
  findByEmail(email: string, limit: number): Promise<UserRow[]>
  findByAffCode(code: string): Promise<UserRow | undefined>
  /** by the SHA-256 of a management access token */
  findByAccessToken(hash: string): Promise<UserRow | undefined>
  count(): Promise<number>
  /** Root, or anyone at `rootRole` or above, exists. */
  rootExists(rootRole: number): Promise<boolean>
  /** Newest first; `keyword` matches username, display name, email or the id; `maxRole` keeps roles up to it. */
  list(offset: number, limit: number, keyword?: string, maxRole?: number): Promise<Page<UserRow>>

  /** Insert a user (and credit its inviter, in the same transaction); a taken username, look-alike key or code is a unique violation. */
  insert(user: NewUser, inviter?: InviterCredit): Promise<UserRow>
  /** Insert the first user only while the table is empty; concurrent callers get undefined, never a second row. */
  insertFirst(user: NewUser): Promise<UserRow | undefined>
  update(id: number, patch: UserPatch): Promise<UserRow | undefined>
  delete(id: number): Promise<boolean>

  /** Add (or with a negative amount, take) quota in one conditional statement: a take never drives the balance below zero. */
  addQuota(id: number, amount: number): Promise<UserRow | undefined>
  /** Move invitation quota to the usable balance in one conditional statement: concurrent moves cannot overdraw. */
  transferAffQuota(id: number, amount: number): Promise<UserRow | undefined>
  /** Bump session_version: every cookie issued before stops working, on every device (the access token stays). */
  revokeAllSessions(id: number): Promise<UserRow | undefined>
  /**
   * End every credential of the account in one statement with `patch`: session_version bumped (every cookie issued
   * before stops working) and the management access token dropped (a new one comes from GET /api/user/token).
   */
  revokeCredentials(id: number, patch?: UserPatch): Promise<UserRow | undefined>
  /** A new password hash; it ends every credential issued before, as `revokeCredentials` does. */
  setPassword(id: number, hash: string): Promise<UserRow | undefined>
  /** Give a user an invite code unless one is set already; a taken code is a unique violation. */
  setAffCodeIfMissing(id: number, code: string): Promise<UserRow | undefined>
}
