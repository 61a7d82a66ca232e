import type { NewLog, NewTopUp, NewUserSubscription, Page, TopUpRow } from './rows'

export type { TopUpRow } from './rows'

/** An order's state, as new-api writes it (`success` is what the console calls paid). */
export const TopUpStatus = { pending: 'pending', success: 'success', expired: 'expired', failed: 'failed' } as const

export interface TopUpFilter {
  userId?: number
  /** part of the trade number */
  keyword?: string
  status?: string
  provider?: string
  /** created at or after (unix seconds) */
  createdFrom?: number
  /** created at or before (unix seconds) */
  createdTo?: number
  /** a pending order created before this (unix seconds) reads as expired: the `status` filter sorts it so */
  pendingExpiresBefore?: number
}

/** What a paid order must match: the provider that reports it, and the money and currency it reports. */
export interface PaymentCheck {
  provider?: string
  moneyCents?: number
  currency?: string
  /** the provider's own id for the payment, stored on the order when it is credited */
  providerRef?: string
}

/** Online top-up orders. */
export interface TopUpRepo {
  insert(row: NewTopUp): Promise<TopUpRow>
  findByTradeNo(tradeNo: string): Promise<TopUpRow | undefined>
  /** Newest first. */
  list(filter: TopUpFilter, offset: number, limit: number): Promise<Page<TopUpRow>>
  /** Orders of a user created at or after `since` still pending (a bound on open checkouts). */
  countPendingSince(userId: number, since: number): Promise<number>
  /**
   * Mark the pending order paid, credit its quota to its owner and write the top-up log, in one transaction: one
   * conditional UPDATE (status pending, and `check`'s provider, money and currency) decides, so of any number of
   * concurrent callers on any node exactly one gets the row; the others, and any mismatch, get undefined. A
   * subscription order (`plan_id` > 0) credits no quota: `grantOf` gives the plan it buys, inserted in the same
   * transaction.
   */
  complete(tradeNo: string, check: PaymentCheck, now: number, logOf: (row: TopUpRow) => NewLog, grantOf?: (row: TopUpRow) => NewUserSubscription | undefined): Promise<TopUpRow | undefined>
  /** Move a pending order to `status` (expired, failed); false when it was not pending. */
  settleUnpaid(tradeNo: string, status: 'expired' | 'failed', now: number): Promise<boolean>
  /** Record the provider's id for the checkout (Stripe session, Creem checkout). */
  setProviderRef(tradeNo: string, ref: string): Promise<void>
}
