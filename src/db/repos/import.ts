import type { NewChannel, NewLog, NewRedemption, NewSubscriptionPlan, NewToken, NewTopUp, NewUser, NewUserSubscription } from './rows'
import type { NewPasskey } from './second-factors'
import type { CustomOAuthFields } from './custom-oauth'
import type { NewTask } from './tasks'
import type { NotifySettingsFields } from './notify-settings'

export interface HourlyRow {
  userId: number
  username: string
  modelName: string
  /** unix seconds at the start of the hour */
  hour: number
  count: number
  quota: number
  tokenUsed: number
}

/**
 * The writes of `tollgate import` (src/import/): rows from another gateway's database, ids kept when the target is
 * empty. The caller holds one transaction around everything (`begin` … `commit`, or `rollback` on any error), so a
 * failed import leaves the target as it was. Nothing here touches the repositories' caches: the import runs with
 * the gateway stopped, and the next start loads everything fresh.
 */
export interface ImportRepo {
  /** Row counts of the tables an import fills (all zero = empty). */
  counts(): Promise<Record<string, number>>
  /** Take the write lock now, so a gateway running on the same database makes this fail at once. */
  begin(): Promise<void>
  commit(): Promise<void>
  /** A no-op outside a transaction. */
  rollback(): Promise<void>

  usernameTaken(username: string): Promise<boolean>
  affCodeTaken(code: string): Promise<boolean>
  tokenKeyTaken(hash: string): Promise<boolean>
  redemptionKeyTaken(hash: string): Promise<boolean>
  /** One sealed channel key of the target, to check the crypto secret against (undefined: no channels). */
  anyChannelKey(): Promise<string | undefined>
  optionSet(key: string): Promise<boolean>

  /** Insert and answer the id (the given one, or a new one when `row.id` is undefined). */
  insertUser(row: NewUser): Promise<number>
  setInviter(id: number, inviterId: number): Promise<void>
  /** A sign-in provider binding; false (nothing written) when that provider account is bound already. */
  insertBinding(userId: number, provider: string, externalId: string): Promise<boolean>
  /** A custom sign-in provider (its secret sealed): its new id, or undefined (nothing written) when its slug is taken. */
  insertCustomOAuth(fields: CustomOAuthFields): Promise<number | undefined>
  insertToken(row: NewToken): Promise<number>
  insertRedemption(row: NewRedemption): Promise<number>
  /** A channel and its routing rows (abilities), as the channel repository writes them. */
  insertChannel(row: NewChannel): Promise<number>
  setOption(key: string, value: string): Promise<void>
  /** A user's notification settings (the webhook secret sealed), as PUT /api/user/setting saves them. */
  insertNotifySettings(userId: number, fields: NotifySettingsFields): Promise<void>
  /** An enabled TOTP (its secret sealed) with its unused backup codes' hashes, as new-api kept them (bcrypt). */
  insertTwoFactor(userId: number, sealedSecret: string, codeHashes: string[]): Promise<void>
  /** A passkey; false (nothing written) when its credential id is in the target already. */
  insertPasskey(row: NewPasskey): Promise<boolean>
  /** An online top-up or subscription order; false (nothing written) when its trade number is in the target already. */
  insertTopUp(row: NewTopUp): Promise<boolean>
  /** A task (Midjourney, Suno) as it ended in the source: never polled, nothing charged or refunded. */
  insertTask(row: NewTask): Promise<void>
  /** A subscription plan (new id); answers it. */
  insertPlan(row: NewSubscriptionPlan): Promise<number>
  /** A plan a user holds. */
  insertUserSubscription(row: NewUserSubscription): Promise<void>
  /** Log rows, with the hourly sums of their consume rows (the same insert the metering writer uses). */
  insertLogs(rows: NewLog[]): Promise<void>
  /** Hourly usage that no imported log row accounts for (hours before the first one): both hourly tables. */
  addHourly(rows: HourlyRow[]): Promise<void>
  /**
   * Make the table's next generated id larger than `id`: ids of rows not imported (soft-deleted users, say) still
   * appear in imported logs, and must never be handed to a new row that would then own them.
   */
  reserveIds(table: 'users' | 'tokens' | 'channels' | 'redemptions', id: number): Promise<void>
}
