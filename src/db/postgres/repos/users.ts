import { and, asc, count, desc, eq, gt, gte, isNull, lt, or, sql } from 'drizzle-orm'
import type { PgDb } from '../client'
import { users } from '../schema'
import type { InviterCredit, NewUser, UserPatch, UserRepo, UserRow } from '../../repos/users'
import { isUniqueViolation } from '../../repos/errors'
import { FILL_BATCH, withUsernameKey } from '../../repos/username-key'
import { advanceIdentity, contains, eqInt, first, isInt4, keywordId, type PgRunner } from './sql'

/** The first-user insert's transaction lock (any fixed int8 only Tollgate asks for). */
const FIRST_USER_LOCK = 7_461_017_003

/** The inviter's reward, or 0 once they have `maxRewarded` invitees: read in the UPDATE, so no burst passes the cap. */
const inviterReward = (inviter: InviterCredit) =>
  inviter.maxRewarded > 0
    ? sql`(CASE WHEN ${users.affCount} < ${inviter.maxRewarded}::integer THEN ${inviter.reward}::bigint ELSE 0 END)`
    : sql`${inviter.reward}::bigint`

/**
 * Users on PostgreSQL, with the id-keyed memory cache relay auth and the session check read; this repo's writes
 * refresh it, `forget` drops an entry (another node's write). A load that raced a write or a forget is not
 * cached: it may have read the row before that write.
 */
export function createUserRepo(db: PgDb) {
  const byId = new Map<number, UserRow>()
  let writes = 0 // bumped by every write and forget: a load started before one does not fill the cache

  const drop = (id: number) => {
    writes++
    byId.delete(id)
  }

  async function load(id: number): Promise<UserRow | undefined> {
    const cached = byId.get(id)
    if (cached) return cached
    if (!isInt4(id)) return undefined
    const before = writes
    const row = first(await db.select().from(users).where(eq(users.id, id)).limit(1))
    if (row && writes === before) byId.set(id, row)
    return row
  }

  function fresh(id: number): Promise<UserRow | undefined> {
    drop(id)
    return load(id)
  }

  async function insertRow(runner: PgRunner, user: NewUser): Promise<UserRow> {
    const [row] = await runner.insert(users).values(withUsernameKey(user)).returning()
    if (user.id != null) await advanceIdentity(runner, 'users', user.id)
    return row!
  }

  const remember = (row: UserRow) => {
    writes++
    byId.set(row.id, row)
    return row
  }

  async function revokeCredentials(id: number, patch: UserPatch = {}) {
    await db.update(users).set({ ...patch, sessionVersion: sql`${users.sessionVersion} + 1`, accessToken: null }).where(eqInt(users.id, id))
    return fresh(id)
  }

  const repo = {
    cachedById: (id: number) => byId.get(id),
    findById: async (id: number) => load(id),
    forget: (id: number) => drop(id),
    forgetAll() {
      writes++
      byId.clear()
    },

    findByUsername: async (username: string) => first(await db.select().from(users).where(eq(users.username, username)).limit(1)),
    findByUsernameKey: async (key: string) => first(await db.select().from(users).where(eq(users.usernameKey, key)).limit(1)),
    findByEmail: async (email: string, limit: number) => db.select().from(users).where(sql`lower(${users.email}) = ${email.toLowerCase()}`).limit(limit),
    findByAffCode: async (code: string) => first(await db.select().from(users).where(eq(users.affCode, code)).limit(1)),
    findByAccessToken: async (hash: string) => first(await db.select().from(users).where(eq(users.accessToken, hash)).limit(1)),
    count: async () => (await db.select({ n: count() }).from(users))[0]!.n,
    rootExists: async (rootRole: number) => (await db.select({ id: users.id }).from(users).where(gte(users.role, rootRole)).limit(1)).length > 0,

    async list(offset: number, limit: number, keyword?: string, maxRole?: number) {
      const where = and(
        keyword
          ? or(contains(users.username, keyword), contains(users.displayName, keyword), contains(users.email, keyword), eq(users.id, keywordId(keyword)))
          : undefined,
        maxRole !== undefined ? lt(users.role, maxRole + 1) : undefined,
      )
      const items = await db.select().from(users).where(where).orderBy(desc(users.id)).limit(limit).offset(offset)
      const [total] = await db.select({ n: count() }).from(users).where(where)
      return { items, total: total!.n }
    },

    async insert(user: NewUser, inviter?: InviterCredit) {
      if (!inviter) return remember(await insertRow(db, user))
      const row = await db.transaction(async (tx) => {
        const inserted = await insertRow(tx, user)
        await tx
          .update(users)
          .set({
            affCount: sql`${users.affCount} + 1`,
            affQuota: sql`${users.affQuota} + ${inviterReward(inviter)}`,
            affHistoryQuota: sql`${users.affHistoryQuota} + ${inviterReward(inviter)}`,
          })
          .where(eqInt(users.id, inviter.id))
        return inserted
      })
      drop(inviter.id)
      return remember(row)
    },

    /** Race-free across nodes: a transaction-level advisory lock serializes the check and the insert. */
    async insertFirst(user: NewUser) {
      const row = await db.transaction(async (tx) => {
        await tx.execute(sql`SELECT pg_advisory_xact_lock(${FIRST_USER_LOCK})`)
        const [existing] = await tx.select({ id: users.id }).from(users).limit(1)
        return existing ? undefined : insertRow(tx, user)
      })
      return row && remember(row)
    },

    async update(id: number, patch: UserPatch) {
      if (Object.keys(patch).length > 0 && isInt4(id)) await db.update(users).set(withUsernameKey(patch)).where(eq(users.id, id))
      return fresh(id)
    },

    async fillUsernameKeys() {
      let filled = 0
      for (let after = 0; ; ) {
        const rows = await db.select({ id: users.id, username: users.username }).from(users).where(and(isNull(users.usernameKey), gt(users.id, after))).orderBy(asc(users.id)).limit(FILL_BATCH)
        if (rows.length === 0) return filled
        for (const row of rows) {
          // one statement each: a clash (another node, or a name that reads like an older one) fails alone
          const done = await db.update(users).set(withUsernameKey({ username: row.username })).where(eq(users.id, row.id)).then(() => true, (error: unknown) => {
            if (!isUniqueViolation(error)) throw error
            return false
          })
          if (done) filled++
        }
        after = rows.at(-1)!.id
      }
    },

    async delete(id: number) {
      const gone = await db.delete(users).where(eqInt(users.id, id)).returning({ id: users.id })
      drop(id)
      return gone.length > 0
    },

    async addQuota(id: number, amount: number) {
      const where = amount < 0 ? and(eqInt(users.id, id), gte(users.quota, -amount)) : eqInt(users.id, id)
      const moved = await db.update(users).set({ quota: sql`${users.quota} + ${amount}` }).where(where).returning({ id: users.id })
      return moved.length > 0 ? fresh(id) : undefined
    },

    async transferAffQuota(id: number, amount: number) {
      const moved = await db
        .update(users)
        .set({ affQuota: sql`${users.affQuota} - ${amount}`, quota: sql`${users.quota} + ${amount}` })
        .where(and(eqInt(users.id, id), gte(users.affQuota, amount)))
        .returning({ id: users.id })
      return moved.length > 0 ? fresh(id) : undefined
    },

    async revokeAllSessions(id: number) {
      await db.update(users).set({ sessionVersion: sql`${users.sessionVersion} + 1` }).where(eqInt(users.id, id))
      return fresh(id)
    },

    revokeCredentials,

    setPassword: async (id: number, hash: string) => revokeCredentials(id, { password: hash }),

    async setAffCodeIfMissing(id: number, code: string) {
      await db.update(users).set({ affCode: code }).where(and(eqInt(users.id, id), isNull(users.affCode)))
      return fresh(id)
    },
  } satisfies UserRepo
  return { repo: repo as UserRepo, cached: (id: number) => byId.get(id) }
}
