import type { RevokedSessionRow } from './rows'

/** Session ids revoked by logout, each with the expiry of its JWT (unix seconds); the auth check reads them from memory (services/sessions). */
export interface RevokedSessionRepo {
  /** The revocations whose JWT is still unexpired at `now`. */
  unexpired(now: number): Promise<RevokedSessionRow[]>
  /** Record a revocation; revoking the same id twice is a no-op. */
  insert(id: string, expiresAt: number): Promise<void>
  /** Delete the revocations whose JWT has expired by `now`; answers how many went. */
  deleteExpired(now: number): Promise<number>
}
