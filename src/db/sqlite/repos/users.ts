import { and, asc, count, desc, eq, gt, gte, isNull, like, lt, or, sql } from 'drizzle-orm'
import type { Db } from '../client'
import { users } from '../schema'
import type { InviterCredit, NewUser, UserPatch, UserRepo, UserRow } from '../../repos/users'
import { isUniqueViolation } from '../../repos/errors'
import { FILL_BATCH, withUsernameKey } from '../../repos/username-key'
import { syncedBefore } from './synced'

/** The inviter's reward, or 0 once they have `maxRewarded` invitees: read in the UPDATE, so no burst passes the cap. */
const inviterReward = (inviter: InviterCredit) =>
  inviter.maxRewarded > 0 ? sql`(CASE WHEN ${users.affCount} < ${inviter.maxRewarded} THEN ${inviter.reward} ELSE 0 END)` : sql`${inviter.reward}`

/**
 * Users, with an id-keyed memory cache for the hot auth path; every write here refreshes it. `sync` writes
 * the quota ledger's pending deltas; it runs before every database read, so a loaded row is never behind.
 * bun:sqlite is synchronous: the interface's promises are already resolved when they are returned.
 */
export function createUserRepo(db: Db, sync: () => void = () => {}) {
  const byId = new Map<number, UserRow>()

  function fresh(id: number): UserRow | undefined {
    byId.delete(id)
    return load(id)
  }

  /** The cached row (the quota ledger changes it in place), or loaded and cached: the ledger's synchronous read. */
  function load(id: number): UserRow | undefined {
    const cached = byId.get(id)
    if (cached) return cached
    sync()
    const row = db.select().from(users).where(eq(users.id, id)).get()
    if (row) byId.set(id, row)
    return row
  }

  const insert = (user: NewUser): UserRow => {
    const row = db.insert(users).values(withUsernameKey(user)).returning().get()
    byId.set(row.id, row)
    return row
  }

  async function revokeCredentials(id: number, patch: UserPatch = {}) {
    db.update(users).set({ ...patch, sessionVersion: sql`${users.sessionVersion} + 1`, accessToken: null }).where(eq(users.id, id)).run()
    return fresh(id)
  }

  const repo = {
    cachedById: (id: number) => byId.get(id),
    findById: async (id: number) => load(id),
    forget: (id: number) => void byId.delete(id),
    forgetAll: () => byId.clear(),

    findByUsername: async (username: string) => db.select().from(users).where(eq(users.username, username)).get(),
    findByUsernameKey: async (key: string) => db.select().from(users).where(eq(users.usernameKey, key)).get(),
    findByEmail: async (email: string, limit: number) => db.select().from(users).where(sql`lower(${users.email}) = ${email.toLowerCase()}`).limit(limit).all(),
    findByAffCode: async (code: string) => db.select().from(users).where(eq(users.affCode, code)).get(),
    findByAccessToken: async (hash: string) => db.select().from(users).where(eq(users.accessToken, hash)).get(),
    count: async () => db.select({ n: count() }).from(users).get()!.n,
    rootExists: async (rootRole: number) => db.select({ id: users.id }).from(users).where(gte(users.role, rootRole)).limit(1).get() !== undefined,

    async list(offset: number, limit: number, keyword?: string, maxRole?: number) {
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

    async insert(user: NewUser, inviter?: InviterCredit) {
      if (!inviter) return insert(user)
      return db.$client.transaction(() => {
        const row = insert(user)
        db.update(users)
          .set({
            affCount: sql`${users.affCount} + 1`,
            affQuota: sql`${users.affQuota} + ${inviterReward(inviter)}`,
            affHistoryQuota: sql`${users.affHistoryQuota} + ${inviterReward(inviter)}`,
          })
          .where(eq(users.id, inviter.id))
          .run()
        byId.delete(inviter.id)
        return row
      })()
    },

    async insertFirst(user: NewUser) {
      const row = db.$client
        .transaction(() => (db.select({ n: count() }).from(users).get()!.n > 0 ? undefined : db.insert(users).values(withUsernameKey(user)).returning().get()))
        .immediate()
      if (row) byId.set(row.id, row)
      return row
    },

    async update(id: number, patch: UserPatch) {
      if (Object.keys(patch).length > 0) db.update(users).set(withUsernameKey(patch)).where(eq(users.id, id)).run()
      return fresh(id)
    },

    async fillUsernameKeys() {
      let filled = 0
      for (let after = 0; ; ) {
        const rows = db.select({ id: users.id, username: users.username }).from(users).where(and(isNull(users.usernameKey), gt(users.id, after))).orderBy(asc(users.id)).limit(FILL_BATCH).all()
        if (rows.length === 0) return filled
        for (const row of rows) {
          try {
            db.update(users).set(withUsernameKey({ username: row.username })).where(eq(users.id, row.id)).run()
            filled++
          } catch (error) {
            if (!isUniqueViolation(error)) throw error
          }
        }
        after = rows.at(-1)!.id
      }
    },

    async delete(id: number) {
      const result = db.delete(users).where(eq(users.id, id)).returning({ id: users.id }).all()
      byId.delete(id)
      return result.length > 0
    },

    async addQuota(id: number, amount: number) {
      const where = amount < 0 ? and(eq(users.id, id), gte(users.quota, -amount)) : eq(users.id, id)
      const result = db.update(users).set({ quota: sql`${users.quota} + ${amount}` }).where(where).returning({ id: users.id }).all()
      return result.length > 0 ? fresh(id) : undefined
    },

    async transferAffQuota(id: number, amount: number) {
      const result = db
        .update(users)
        .set({ affQuota: sql`${users.affQuota} - ${amount}`, quota: sql`${users.quota} + ${amount}` })
        .where(and(eq(users.id, id), gte(users.affQuota, amount)))
        .returning({ id: users.id })
        .all()
      return result.length > 0 ? fresh(id) : undefined
    },

    async revokeAllSessions(id: number) {
      db.update(users).set({ sessionVersion: sql`${users.sessionVersion} + 1` }).where(eq(users.id, id)).run()
      return fresh(id)
    },

    revokeCredentials,

    setPassword: async (id: number, hash: string) => revokeCredentials(id, { password: hash }),

    async setAffCodeIfMissing(id: number, code: string) {
      db.update(users).set({ affCode: code }).where(and(eq(users.id, id), isNull(users.affCode))).run()
      return fresh(id)
    },
  } satisfies UserRepo
  return { repo: syncedBefore<UserRepo>(repo, sync, ['cachedById', 'findById', 'forget', 'forgetAll']), load }
}
