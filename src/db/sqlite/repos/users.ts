import { and, count, desc, eq, gte, isNull, like, lt, or, sql } from 'drizzle-orm'
import type { Db } from '../client'
import { users } from '../schema'
import { syncedBefore } from './synced'

export type UserRow = typeof users.$inferSelect
export type NewUser = typeof users.$inferInsert
export type UserPatch = Partial<Omit<NewUser, 'id'>>

export interface Page<T> {
  items: T[]
  total: number
}

/**
 * Users, with an id-keyed memory cache for the hot auth path; every write here refreshes it. `sync` writes
 * the quota ledger's pending deltas; it runs before every database read, so a loaded row is never behind.
 */
export function createUserRepo(db: Db, sync: () => void = () => {}) {
  const byId = new Map<number, UserRow>()

  function fresh(id: number): UserRow | undefined {
    byId.delete(id)
    return findById(id)
  }

  function findById(id: number): UserRow | undefined {
    const cached = byId.get(id)
    if (cached) return cached
    sync()
    const row = db.select().from(users).where(eq(users.id, id)).get()
    if (row) byId.set(id, row)
    return row
  }

  const repo = {
    /** The cached row (the quota ledger changes it in place), or loaded and cached. */
    findById,
    forget: (id: number) => void byId.delete(id),

    findByUsername: (username: string) => db.select().from(users).where(eq(users.username, username)).get(),
    findByAffCode: (code: string) => db.select().from(users).where(eq(users.affCode, code)).get(),
    findByAccessToken: (hash: string) => db.select().from(users).where(eq(users.accessToken, hash)).get(),
    count: () => db.select({ n: count() }).from(users).get()!.n,

    insert(user: NewUser): UserRow {
      const row = db.insert(users).values(user).returning().get()
      byId.set(row.id, row)
      return row
    },

    update(id: number, patch: UserPatch): UserRow | undefined {
      if (Object.keys(patch).length > 0) db.update(users).set(patch).where(eq(users.id, id)).run()
      return fresh(id)
    },

    delete(id: number): boolean {
      const result = db.delete(users).where(eq(users.id, id)).returning({ id: users.id }).all()
      byId.delete(id)
      return result.length > 0
    },

    list(offset: number, limit: number, keyword?: string, maxRole?: number): Page<UserRow> {
      const filters = [
        keyword
          ? or(like(users.username, `%${keyword}%`), like(users.displayName, `%${keyword}%`), like(users.email, `%${keyword}%`), eq(users.id, Number(keyword) || -1))
          : undefined,
        maxRole !== undefined ? lt(users.role, maxRole + 1) : undefined,
      ].filter(Boolean)
      const where = filters.length ? and(...filters) : undefined
      const items = db.select().from(users).where(where).orderBy(desc(users.id)).limit(limit).offset(offset).all()
      const total = db.select({ n: count() }).from(users).where(where).get()!.n
      return { items, total }
    },

    /** Add (or with a negative amount, take) quota; a take never drives the balance below zero. */
    addQuota(id: number, amount: number): UserRow | undefined {
      const where = amount < 0 ? and(eq(users.id, id), gte(users.quota, -amount)) : eq(users.id, id)
      const result = db.update(users).set({ quota: sql`${users.quota} + ${amount}` }).where(where).returning({ id: users.id })
        .all()
      return result.length > 0 ? fresh(id) : undefined
    },

    /** Move invitation quota to the usable balance in one statement: concurrent moves cannot overdraw. */
    transferAffQuota(id: number, amount: number): UserRow | undefined {
      const result = db
        .update(users)
        .set({ affQuota: sql`${users.affQuota} - ${amount}`, quota: sql`${users.quota} + ${amount}` })
        .where(and(eq(users.id, id), gte(users.affQuota, amount)))
        .returning({ id: users.id })
        .all()
      return result.length > 0 ? fresh(id) : undefined
    },

    /** Credit the inviter of a new user: count, pending and lifetime invitation quota. */
    creditInviter(id: number, reward: number): void {
      db.update(users)
        .set({
          affCount: sql`${users.affCount} + 1`,
          affQuota: sql`${users.affQuota} + ${reward}`,
          affHistoryQuota: sql`${users.affHistoryQuota} + ${reward}`,
        })
        .where(eq(users.id, id))
        .run()
      byId.delete(id)
    },

    /** Insert the first user only while the table is empty; concurrent callers get undefined, never a second row. */
    insertFirst(user: NewUser): UserRow | undefined {
      const row = db.$client
        .transaction(() => (db.select({ n: count() }).from(users).get()!.n > 0 ? undefined : db.insert(users).values(user).returning().get()))
        .immediate()
      if (row) byId.set(row.id, row)
      return row
    },

    rootExists: (rootRole: number) => db.select({ id: users.id }).from(users).where(gte(users.role, rootRole)).limit(1).get() !== undefined,

    /** Bump session_version: every cookie issued before stops working, on every device. */
    revokeAllSessions(id: number): UserRow | undefined {
      db.update(users).set({ sessionVersion: sql`${users.sessionVersion} + 1` }).where(eq(users.id, id)).run()
      return fresh(id)
    },

    /** New password hash; bumping session_version revokes every cookie issued before. */
    setPassword(id: number, hash: string): UserRow | undefined {
      db.update(users).set({ password: hash, sessionVersion: sql`${users.sessionVersion} + 1` }).where(eq(users.id, id)).run()
      return fresh(id)
    },

    /** Give a user an invite code unless one is set already; a taken code throws a unique violation. */
    setAffCodeIfMissing(id: number, code: string): UserRow | undefined {
      db.update(users).set({ affCode: code }).where(and(eq(users.id, id), isNull(users.affCode))).run()
      return fresh(id)
    },

    /** Run several repo calls as one transaction (bun:sqlite transactions are synchronous). */
    transaction<T>(fn: () => T): T {
      return db.$client.transaction(fn)()
    },
  }
  return syncedBefore(repo, sync, ['findById', 'forget'])
}

export type UserRepo = ReturnType<typeof createUserRepo>

/** True when SQLite refused a write because a UNIQUE column already holds the value. */
export function isUniqueViolation(error: unknown): boolean {
  for (let e: unknown = error; e instanceof Error; e = e.cause) {
    if (/UNIQUE constraint failed/i.test(e.message) || (e as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') return true
  }
  return false
}
