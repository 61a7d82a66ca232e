import { and, asc, eq, gte } from 'drizzle-orm'
import type { PgDb } from '../client'
import { userNotifySettings, users } from '../schema'
import type { NotifySettingsRepo } from '../../repos/notify-settings'

export function createNotifySettingsRepo(db: PgDb): NotifySettingsRepo {
  return {
    async get(userId) {
      const [row] = await db.select().from(userNotifySettings).where(eq(userNotifySettings.userId, userId))
      return row
    },
    async put(userId, fields) {
      const row = { ...fields, userId, updatedTime: Math.floor(Date.now() / 1000) }
      const [saved] = await db.insert(userNotifySettings).values(row).onConflictDoUpdate({ target: userNotifySettings.userId, set: row }).returning()
      return saved!
    },
    async recipientsAtRole(minRole, limit) {
      const rows = await db
        .select({ userId: users.id, email: users.email, settings: userNotifySettings })
        .from(users)
        .leftJoin(userNotifySettings, eq(userNotifySettings.userId, users.id))
        .where(and(gte(users.role, minRole), eq(users.status, 1)))
        .orderBy(asc(users.id))
        .limit(limit)
      return rows.map((r) => ({ userId: r.userId, email: r.email, settings: r.settings ?? undefined }))
    },
  }
}
