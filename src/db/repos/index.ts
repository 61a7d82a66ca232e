/**
 * The storage seam: what the rest of the gateway may ask of the database, whatever the dialect. One
 * implementation per dialect (src/db/sqlite/repos/, later src/db/postgres/repos/) builds a `Repos`; src/db/index.ts
 * picks it from the configuration. Everything that reaches the database is async; the few synchronous methods
 * (`users.cachedById`, `tokens.cachedByKeyHash`, the `forget…` drops, `quota.onDirty`) touch memory only, so
 * the relay reads a warm key and its owner without waiting on a promise.
 */
import type { BindingRepo } from './bindings'
import type { CustomOAuthRepo } from './custom-oauth'
import type { ChannelRepo } from './channels'
import type { EmailCodeRepo } from './email-codes'
import type { LogRepo } from './logs'
import type { NotifySettingsRepo } from './notify-settings'
import type { OptionRepo } from './options'
import type { QuotaRepo } from './quota'
import type { RedemptionRepo } from './redemptions'
import type { RevokedSessionRepo } from './revoked-sessions'
import type { SecondFactorRepo } from './second-factors'
import type { NewLog } from './rows'
import type { TokenRepo } from './tokens'
import type { TopUpRepo } from './topups'
import type { SubscriptionRepo } from './subscriptions'
import type { TaskRepo } from './tasks'
import type { UserRepo } from './users'

type Dialect = 'sqlite' | 'postgres'

/** What readiness (`/readyz`) asks of the database. */
export interface StorageCheck {
  /** 'ok', or why the database did not answer */
  database: string
  /** the embedded migrations the database has not recorded as applied (empty when up to date) */
  pendingMigrations: string[]
}

/** The repositories each dialect implements; tests/db/repos/interface.test.ts checks an implementation has every method. */
export interface RepoSet {
  users: UserRepo
  tokens: TokenRepo
  options: OptionRepo
  channels: ChannelRepo
  logs: LogRepo
  quota: QuotaRepo
  redemptions: RedemptionRepo
  revokedSessions: RevokedSessionRepo
  secondFactors: SecondFactorRepo
  emailCodes: EmailCodeRepo
  topups: TopUpRepo
  subscriptions: SubscriptionRepo
  bindings: BindingRepo
  customOAuth: CustomOAuthRepo
  tasks: TaskRepo
  notifySettings: NotifySettingsRepo
}

export interface Repos extends RepoSet {
  readonly dialect: Dialect
  /**
   * A batch of the relay's log rows, with whatever quota moves the ledger left pending (`quota.onDirty`), in one
   * transaction: written whole or not at all (a rejection keeps nothing; the log writer retries the rows).
   */
  commitMetering(rows: NewLog[]): Promise<void>
  /** Resolves once every batch committed so far is on disk (a dialect that commits off the event loop waits for it). */
  drainMetering(): Promise<void>
  /** Whether the database answers and its schema is current. */
  check(): Promise<StorageCheck>
  /** End background writers after their last batch, and close the database when the repositories opened it. */
  close(): Promise<void>
}

export type { ChannelPatch, ChannelRow, LogRow, NewChannel, NewLog, NewUser, RedemptionRow, TokenRow, UserRow } from './rows'
export type { BindingRow } from './bindings'
export type { CustomOAuthFields, CustomOAuthRow } from './custom-oauth'
export type { ChannelRepo } from './channels'
export type { EmailCodeRepo, EmailCodeRow } from './email-codes'
export type { LogFilter, LogRepo } from './logs'
export type { OptionRepo } from './options'
export type { QuotaRepo } from './quota'
export type { RedemptionRepo } from './redemptions'
export type { RevokedSessionRepo } from './revoked-sessions'
export type { TokenRepo } from './tokens'
export type { TopUpRepo } from './topups'
export type { TaskRepo } from './tasks'
export type { UserRepo } from './users'
export type { HourlyRow, ImportRepo } from './import'
export { ChannelStatus } from './channels'
export { LogType } from './logs'
export { RedemptionStatus } from './redemptions'
export { isUniqueViolation } from './errors'
