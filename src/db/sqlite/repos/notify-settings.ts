import { and, asc, eq, gte } from 'drizzle-orm'
import type { Db } from '../client'
import { userNotifySettings, users } from '../schema'
import type { NotifySettingsRepo } from '../../repos/notify-settings'

export function createNotifySettingsRepo(db: Db): NotifySettingsRepo {
  return {
    get: async (userId) => db.select().from(userNotifySettings).where(eq(userNotifySettings.userId, userId)).get(),
    put: async (userId, fields) => {
      const row = { ...fields, userId, updatedTime: Math.floor(Date.now() / 1000) }
      return db.insert(userNotifySettings).values(row).onConflictDoUpdate({ target: userNotifySettings.userId, set: row }).returning().get()
    },
    recipientsAtRole: async (minRole, limit) =>
      db
        .select({ userId: users.id, email: users.email, settings: userNotifySettings })
        .from(users)
        .leftJoin(userNotifySettings, eq(userNotifySettings.userId, users.id))
        .where(and(gte(users.role, minRole), eq(users.status, 1)))
        .orderBy(asc(users.id))
        .limit(limit)
        .all()
        .map((r) => ({ userId: r.userId, email: r.email, settings: r.settings ?? undefined })),
  }
}
