import type { NewToken, Page, TokenPatch, TokenRow } from './rows'

export type { NewToken, TokenPatch, TokenRow } from './rows'

/**
 * API keys (tokens). Relay auth looks every request's key up by its hash, so a dialect keeps the rows it has
 * read in memory (unknown hashes too, bounded) and drops them on its own writes: `cachedByKeyHash` answers
 * from there alone, synchronously. Everything that reaches the database is async.
 */
export interface TokenRepo {
  /** From memory only: the row, null for a hash known to match no token, undefined when not in memory (call `findByKeyHash`). */
  cachedByKeyHash(hash: string): TokenRow | null | undefined
  /** The cached row, or else the stored one; the answer (a miss too) is remembered. */
  findByKeyHash(hash: string): Promise<TokenRow | undefined>
  /** The row relay auth sees (the cached one, which the quota ledger moves in place), or else the stored one. */
  liveById(id: number): Promise<TokenRow | undefined>
  /** Drop a token from memory after a write made elsewhere. */
  forget(id: number): void
  /** Drop every cached token of a user (the user changed or went). */
  forgetUser(userId: number): void
  /** Drop every cached token, unknown key hashes included (a missed invalidation from another node). */
  forgetAll(): void

  /** The stored row. */
  findById(id: number): Promise<TokenRow | undefined>
  /** The stored row, only when `userId` owns it. */
  findOwned(id: number, userId: number): Promise<TokenRow | undefined>
  /** Newest first; `keyword` matches the name. */
  listOwned(userId: number, offset: number, limit: number, keyword?: string): Promise<Page<TokenRow>>

  insert(token: NewToken): Promise<TokenRow>
  /** Patch a token `userId` owns; undefined when there is none. */
  update(id: number, userId: number, patch: TokenPatch): Promise<TokenRow | undefined>
  /** Delete the listed tokens `userId` owns; answers how many went. */
  deleteOwned(ids: number[], userId: number): Promise<number>
  /** Move a token from one status to another only if it is still in the first; true when this call did it. */
  setStatusIf(id: number, from: number, to: number): Promise<boolean>
}
