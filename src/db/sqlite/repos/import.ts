import { Database } from 'bun:sqlite'
import { count, eq } from 'drizzle-orm'
import { drizzle } from 'drizzle-orm/bun-sqlite'
import { existsSync } from 'node:fs'
import type { Db } from '../client'
import * as schema from '../schema'
import { abilities, backupCodes, channels, customOAuthProviders, logs, options, passkeys, redemptions, subscriptionPlans, tasks, tokens, topups, twoFactors, usageHourly, userBindings, userNotifySettings, userSubscriptions, users } from '../schema'
import { abilitiesOf } from '../../repos/channels'
import type { ImportRepo } from '../../repos/import'
import { createLogInserter, prepareHourlyUpserts } from './log-insert'

/** The tables an import fills; a target with a row in any of them is not empty. */
const FILLED_TABLES = { users, tokens, channels, redemptions, options, logs, usage_hourly: usageHourly } as const

/** The import's writes into a SQLite target (the interface says what they do). */
export function createImportRepo(db: Db): ImportRepo {
  const sqlite = db.$client
  const insertLogs = createLogInserter(sqlite)
  const { addHour, addModelHour } = prepareHourlyUpserts(sqlite)

  return {
    /** Row counts of the tables an import fills (all zero = empty). */
    async counts() {
      return Object.fromEntries(Object.entries(FILLED_TABLES).map(([name, table]) => [name, db.select({ n: count() }).from(table).get()!.n]))
    },

    /** BEGIN IMMEDIATE: the write lock is taken now, so a running gateway on the same file makes this fail at once. */
    begin: async () => void sqlite.exec('BEGIN IMMEDIATE'),
    commit: async () => void sqlite.exec('COMMIT'),
    rollback: async () => {
      if (sqlite.inTransaction) sqlite.exec('ROLLBACK')
    },

    usernameTaken: async (username) => db.select({ id: users.id }).from(users).where(eq(users.username, username)).get() !== undefined,
    affCodeTaken: async (code) => db.select({ id: users.id }).from(users).where(eq(users.affCode, code)).get() !== undefined,
    tokenKeyTaken: async (hash) => db.select({ id: tokens.id }).from(tokens).where(eq(tokens.keyHash, hash)).get() !== undefined,
    redemptionKeyTaken: async (hash) => db.select({ id: redemptions.id }).from(redemptions).where(eq(redemptions.keyHash, hash)).get() !== undefined,
    /** One sealed channel key of the target, to check the crypto secret against (undefined: no channels). */
    anyChannelKey: async () => db.select({ key: channels.key }).from(channels).limit(1).get()?.key,
    optionSet: async (key) => db.select({ key: options.key }).from(options).where(eq(options.key, key)).get() !== undefined,

    /** Insert and answer the id (the given one, or a new one when `row.id` is undefined). */
    insertUser: async (row) => db.insert(users).values(row).returning({ id: users.id }).get().id,
    setInviter: async (id, inviterId) => void db.update(users).set({ inviterId }).where(eq(users.id, id)).run(),
    insertBinding: async (userId, provider, externalId) => db.insert(userBindings).values({ userId, provider, externalId }).onConflictDoNothing().returning({ id: userBindings.id }).all().length > 0,
    insertCustomOAuth: async (fields) => db.insert(customOAuthProviders).values(fields).onConflictDoNothing().returning({ id: customOAuthProviders.id }).all()[0]?.id,
    insertToken: async (row) => db.insert(tokens).values(row).returning({ id: tokens.id }).get().id,
    insertRedemption: async (row) => db.insert(redemptions).values(row).returning({ id: redemptions.id }).get().id,

    /** A channel and its routing rows (abilities), as the channel repo writes them. */
    async insertChannel(row) {
      const inserted = db.insert(channels).values(row).returning().get()
      const rows = abilitiesOf(inserted)
      for (let i = 0; i < rows.length; i += 500) db.insert(abilities).values(rows.slice(i, i + 500)).run()
      return inserted.id
    },

    setOption: async (key, value) => void db.insert(options).values({ key, value }).onConflictDoUpdate({ target: options.key, set: { value } }).run(),
    async insertNotifySettings(userId, fields) {
      db.insert(userNotifySettings).values({ ...fields, userId }).run()
    },
    async insertTwoFactor(userId, secret, hashes) {
      db.insert(twoFactors).values({ userId, secret, enabled: true }).run()
      if (hashes.length) db.insert(backupCodes).values(hashes.map((codeHash) => ({ userId, codeHash }))).run()
    },
    insertPasskey: async (row) => db.insert(passkeys).values(row).onConflictDoNothing().returning({ id: passkeys.id }).all().length > 0,

    insertTopUp: async (row) => db.insert(topups).values(row).onConflictDoNothing().returning({ id: topups.id }).all().length > 0,
    async insertTask(row) {
      db.insert(tasks).values(row).run()
    },
    insertPlan: async (row) => db.insert(subscriptionPlans).values(row).returning({ id: subscriptionPlans.id }).get().id,
    async insertUserSubscription(row) {
      db.insert(userSubscriptions).values(row).run()
    },

    /** Log rows, with the hourly sums of their consume rows (the same insert the metering writer uses). */
    insertLogs: async (rows) => insertLogs(rows),

    /** Hourly usage that no imported log row accounts for (hours before the first one): both hourly tables. */
    async addHourly(rows) {
      const models = new Map<string, [number, string, number, number, number]>()
      for (const r of rows) {
        addHour.run(r.userId, r.username, r.modelName, r.hour, r.count, r.quota, r.tokenUsed)
        const key = `${r.hour}\u0000${r.modelName}`
        const m = models.get(key)
        if (m) {
          m[2] += r.count
          m[3] += r.quota
          m[4] += r.tokenUsed
        } else models.set(key, [r.hour, r.modelName, r.count, r.quota, r.tokenUsed])
      }
      for (const m of models.values()) addModelHour.run(...m)
    },

    /**
     * Make the table's next AUTOINCREMENT id larger than `id`: ids of rows not imported (soft-deleted users, say)
     * still appear in imported logs, and must never be handed to a new row that would then own them.
     */
    async reserveIds(table, id) {
      if (id <= 0) return
      const updated = sqlite.query('UPDATE sqlite_sequence SET seq = max(seq, ?1) WHERE name = ?2').run(id, table)
      if (updated.changes === 0) sqlite.query('INSERT INTO sqlite_sequence (name, seq) VALUES (?1, ?2)').run(table, id)
    },
  }
}

/**
 * For `--dry-run`: the target database as an in-memory copy (or an empty in-memory one when the file does not
 * exist yet), so the import runs its real writes, constraint checks included, and the file is never touched.
 */
export function openDryRunCopy(path: string): Db {
  let sqlite: Database
  if (existsSync(path)) {
    const file = new Database(path, { readonly: true })
    const bytes = file.serialize()
    file.close()
    // header bytes 18–19 say WAL (2); an in-memory copy cannot open in WAL mode, so mark it a rollback-journal file
    bytes[18] = 1
    bytes[19] = 1
    sqlite = Database.deserialize(bytes, { strict: true })
  } else {
    sqlite = new Database(':memory:', { strict: true })
    sqlite.exec('PRAGMA auto_vacuum = INCREMENTAL')
  }
  sqlite.exec('PRAGMA foreign_keys = ON')
  return drizzle({ client: sqlite, schema }) as Db
}
