import type { userNotifySettings } from '../sqlite/schema'

export type NotifySettingsRow = typeof userNotifySettings.$inferSelect
export type NotifySettingsFields = Omit<NotifySettingsRow, 'userId' | 'updatedTime'>

/** Who hears of channel events: a user at root's role or above, with the account's e-mail and any saved settings. */
export interface NotifyRecipient {
  userId: number
  email: string
  settings?: NotifySettingsRow
}

/** Each user's notification settings (src/notify): at most one row per user, replaced whole on save. */
export interface NotifySettingsRepo {
  get(userId: number): Promise<NotifySettingsRow | undefined>
  /** Insert or replace the user's row. */
  put(userId: number, fields: NotifySettingsFields): Promise<NotifySettingsRow>
  /** Enabled users whose role is at least `minRole`, with their settings (at most `limit`, lowest ids first). */
  recipientsAtRole(minRole: number, limit: number): Promise<NotifyRecipient[]>
}
