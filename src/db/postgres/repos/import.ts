import type { ReservedSQL } from 'bun'
import { count, eq } from 'drizzle-orm'
import { drizzle } from 'drizzle-orm/bun-sql'
import { closePostgres, openPostgres, type PgDb } from '../client'
import { migratePostgres } from '../migrate'
import * as schema from '../schema'
import { abilities, backupCodes, channels, customOAuthProviders, logs, options, passkeys, redemptions, subscriptionPlans, tasks, tokens, topups, twoFactors, usageHourly, userBindings, userNotifySettings, userSubscriptions, users } from '../schema'
import { abilitiesOf } from '../../repos/channels'
import type { ImportRepo } from '../../repos/import'
import { addHourly, insertLogs } from './log-insert'
import { advanceIdentity, first } from './sql'

/** The tables an import fills; a target with a row in any of them is not empty. */
const FILLED_TABLES = { users, tokens, channels, redemptions, options, logs, usage_hourly: usageHourly } as const
type IdTable = 'users' | 'tokens' | 'channels' | 'redemptions'

/** Every table the import writes, locked for the whole transaction. */
const LOCKED = 'users, tokens, channels, abilities, redemptions, options, logs, usage_hourly, usage_hourly_model, two_factors, two_factor_backup_codes, passkeys, custom_oauth_providers'

/** The pool's application name: a gateway's connections say `tollgate` (client.ts), the import's say this. */
const IMPORT_APPLICATION = 'tollgate-import'

/**
 * The import's writes into a PostgreSQL target, on one reserved connection, so `begin` … `commit` is one transaction
 * around everything (the interface says what each write does). Rows inserted with the source's ids move the
 * identity sequences past them before any generated id is taken, and at the end, as SQLite's AUTOINCREMENT does.
 */
function createPostgresImportRepo(conn: ReservedSQL): ImportRepo {
  const db = drizzle({ client: conn as never, schema }) as unknown as PgDb
  let inTransaction = false
  // the largest id given explicitly per table, not yet passed to its sequence
  const given = new Map<IdTable, number>()

  const gave = (table: IdTable, id: number | null | undefined) => {
    if (id != null && id > (given.get(table) ?? 0)) given.set(table, id)
  }
  /** Before a table hands out an id of its own: its sequence past every id given so far. */
  async function settleIds(table: IdTable): Promise<void> {
    const id = given.get(table)
    if (id === undefined) return
    given.delete(table)
    await advanceIdentity(db, table, id)
  }
  async function insertId(table: IdTable, row: { id?: number | null }, insert: () => Promise<{ id: number }[]>): Promise<number> {
    if (row.id == null) await settleIds(table)
    const [inserted] = await insert()
    gave(table, row.id)
    return inserted!.id
  }
  const exists = async (query: Promise<unknown[]>) => (await query).length > 0

  return {
    async counts() {
      const out: Record<string, number> = {}
      for (const [name, table] of Object.entries(FILLED_TABLES)) out[name] = (await db.select({ n: count() }).from(table))[0]!.n
      return out
    },

    /**
     * The transaction, with every table it writes locked at once (NOWAIT): a gateway writing now makes this fail
     * at once, and one connected to the database at all (even idle: its quota sweep keeps a connection) is refused.
     */
    async begin() {
      await conn.unsafe('BEGIN')
      inTransaction = true
      const [others] = (await conn`SELECT count(*)::int AS n FROM pg_stat_activity
        WHERE datname = current_database() AND application_name = 'tollgate' AND pid <> pg_backend_pid()`) as { n: number }[]
      if (others!.n > 0) throw new Error(`a Tollgate gateway is connected to this database (${others!.n} connections): stop every node, then import`)
      await conn.unsafe(`LOCK TABLE ${LOCKED} IN EXCLUSIVE MODE NOWAIT`)
    },
    async commit() {
      for (const table of [...given.keys()]) await settleIds(table)
      await conn.unsafe('COMMIT')
      inTransaction = false
    },
    async rollback() {
      if (!inTransaction) return
      inTransaction = false
      given.clear()
      await conn.unsafe('ROLLBACK')
    },

    usernameTaken: async (username) => exists(db.select({ id: users.id }).from(users).where(eq(users.username, username)).limit(1)),
    affCodeTaken: async (code) => exists(db.select({ id: users.id }).from(users).where(eq(users.affCode, code)).limit(1)),
    tokenKeyTaken: async (hash) => exists(db.select({ id: tokens.id }).from(tokens).where(eq(tokens.keyHash, hash)).limit(1)),
    redemptionKeyTaken: async (hash) => exists(db.select({ id: redemptions.id }).from(redemptions).where(eq(redemptions.keyHash, hash)).limit(1)),
    anyChannelKey: async () => first(await db.select({ key: channels.key }).from(channels).orderBy(channels.id).limit(1))?.key,
    optionSet: async (key) => exists(db.select({ key: options.key }).from(options).where(eq(options.key, key)).limit(1)),

    insertUser: async (row) => insertId('users', row, () => db.insert(users).values(row).returning({ id: users.id })),
    setInviter: async (id, inviterId) => void (await db.update(users).set({ inviterId }).where(eq(users.id, id))),
    insertBinding: async (userId, provider, externalId) => (await db.insert(userBindings).values({ userId, provider, externalId }).onConflictDoNothing().returning({ id: userBindings.id })).length > 0,
    insertCustomOAuth: async (fields) => (await db.insert(customOAuthProviders).values(fields).onConflictDoNothing().returning({ id: customOAuthProviders.id }))[0]?.id,
    insertToken: async (row) => insertId('tokens', row, () => db.insert(tokens).values(row).returning({ id: tokens.id })),
    insertTopUp: async (row) => (await db.insert(topups).values(row).onConflictDoNothing().returning({ id: topups.id })).length > 0,
    async insertTask(row) {
      await db.insert(tasks).values(row)
    },
    insertPlan: async (row) => (await db.insert(subscriptionPlans).values(row).returning({ id: subscriptionPlans.id }))[0]!.id,
    async insertUserSubscription(row) {
      await db.insert(userSubscriptions).values(row)
    },
    insertRedemption: async (row) => insertId('redemptions', row, () => db.insert(redemptions).values(row).returning({ id: redemptions.id })),

    async insertChannel(row) {
      if (row.id == null) await settleIds('channels')
      const [inserted] = await db.insert(channels).values(row).returning()
      gave('channels', row.id)
      const rows = abilitiesOf(inserted!)
      for (let i = 0; i < rows.length; i += 1000) await db.insert(abilities).values(rows.slice(i, i + 1000))
      return inserted!.id
    },

    setOption: async (key, value) => void (await db.insert(options).values({ key, value }).onConflictDoUpdate({ target: options.key, set: { value } })),
    async insertNotifySettings(userId, fields) {
      await db.insert(userNotifySettings).values({ ...fields, userId })
    },
    async insertTwoFactor(userId, secret, hashes) {
      await db.insert(twoFactors).values({ userId, secret, enabled: true })
      if (hashes.length) await db.insert(backupCodes).values(hashes.map((codeHash) => ({ userId, codeHash })))
    },
    insertPasskey: async (row) => (await db.insert(passkeys).values(row).onConflictDoNothing().returning({ id: passkeys.id })).length > 0,
    insertLogs: async (rows) => insertLogs(conn, rows),
    addHourly: async (rows) => addHourly(conn, rows),

    async reserveIds(table, id) {
      if (id <= 0) return
      gave(table, id)
      await settleIds(table)
    },
  }
}

/**
 * The import's target on PostgreSQL: a pool of one connection (named `tollgate-import`, so `begin` can tell a
 * gateway's connections from its own), migrated as a node does at start, that connection reserved for the repo.
 * A dry run needs no copy: its transaction is rolled back.
 */
export async function openPostgresImport(url: string): Promise<{ repo: ImportRepo; close(): Promise<void> }> {
  const db = openPostgres(url, { poolSize: 1, applicationName: IMPORT_APPLICATION, statementTimeoutMs: 0 })
  try {
    await migratePostgres(db.$client)
    const conn = await db.$client.reserve()
    return {
      repo: createPostgresImportRepo(conn),
      async close() {
        conn.release()
        await closePostgres(db)
      },
    }
  } catch (error) {
    await closePostgres(db)
    throw error
  }
}
