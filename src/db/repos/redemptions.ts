import type { NewLog, NewRedemption, Page, RedemptionPatch, RedemptionRow } from './rows'

export type { NewRedemption, RedemptionRow } from './rows'

export const RedemptionStatus = { enabled: 1, disabled: 2, used: 3 } as const

/** Redemption codes, stored by hash. */
export interface RedemptionRepo {
  /** Insert codes in one transaction; the rows in the order given. */
  insertMany(rows: NewRedemption[]): Promise<RedemptionRow[]>
  findById(id: number): Promise<RedemptionRow | undefined>
  /** Newest first; `keyword` matches the name, the id or the key hint. */
  list(offset: number, limit: number, keyword?: string): Promise<Page<RedemptionRow>>
  /** An empty patch reads the row. */
  update(id: number, patch: RedemptionPatch): Promise<RedemptionRow | undefined>
  delete(id: number): Promise<boolean>
  /** Delete every code that can no longer be redeemed: used, disabled or expired by `now`; answers how many went. */
  deleteInvalid(now: number): Promise<number>
  /**
   * Spend the code with this hash for a user: mark it used (one conditional UPDATE), credit its quota and write
   * the top-up log, in one transaction. Of concurrent callers exactly one gets the row; the others get undefined
   * (as does a user that does not exist).
   */
  redeem(keyHash: string, userId: number, now: number, logOf: (row: RedemptionRow) => NewLog): Promise<RedemptionRow | undefined>
}
