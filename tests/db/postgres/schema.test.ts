/**
 * The PostgreSQL schema is a twin of the SQLite one: same tables, column names, row types, keys, indexes and
 * constraints, so one repository interface serves both. A column added to one and not the other fails here
 * (and the row types at the bottom fail `bun run typecheck`).
 */
import { expect, test } from 'bun:test'
import { getTableColumns, getTableName, is, Table } from 'drizzle-orm'
import { getTableConfig as pgConfig, type PgTable } from 'drizzle-orm/pg-core'
import { getTableConfig as sqliteConfig, type SQLiteTable } from 'drizzle-orm/sqlite-core'
import * as pg from '../../../src/db/postgres/schema'
import * as sqlite from '../../../src/db/sqlite/schema'

const tablesOf = (module: Record<string, unknown>) =>
  new Map(Object.entries(module).filter(([, value]) => is(value, Table)).map(([key, value]) => [key, value as Table]))

const sqliteTables = tablesOf(sqlite)
const pgTables = tablesOf(pg)

/** What both dialects must agree on, in dialect-free words. */
function shape(config: ReturnType<typeof sqliteConfig> | ReturnType<typeof pgConfig>) {
  return {
    columns: Object.fromEntries(
      config.columns.map((c) => [c.name, { notNull: c.notNull, hasDefault: c.hasDefault, primary: c.primary, unique: c.isUnique, js: c.dataType }]),
    ),
    primaryKeys: config.primaryKeys.map((pk) => pk.columns.map((c) => c.name)),
    indexes: config.indexes
      .map((i) => ({ name: i.config.name, columns: i.config.columns.map((c) => ('name' in c ? c.name : '?')), unique: i.config.unique }))
      .sort((a, b) => a.name!.localeCompare(b.name!)),
    foreignKeys: config.foreignKeys.map((fk) => {
      const ref = fk.reference()
      return { columns: ref.columns.map((c) => c.name), table: getTableName(ref.foreignTable), to: ref.foreignColumns.map((c) => c.name), onDelete: fk.onDelete }
    }),
  }
}

test('the same tables under the same export names', () => {
  expect([...pgTables.keys()].sort()).toEqual([...sqliteTables.keys()].sort())
  for (const [key, table] of sqliteTables) expect([key, getTableName(pgTables.get(key)!)]).toEqual([key, getTableName(table)])
})

test('per table: the same column names (new-api’s), nullability, defaults, keys, indexes and foreign keys', () => {
  for (const [key, table] of sqliteTables) {
    const lite = shape(sqliteConfig(table as SQLiteTable))
    const post = shape(pgConfig(pgTables.get(key) as PgTable))
    expect([key, Object.keys(post.columns)]).toEqual([key, Object.keys(lite.columns)])
    expect([key, post]).toEqual([key, lite])
  }
})

test('the JavaScript property names match too (the repositories read rows by them)', () => {
  for (const [key, table] of sqliteTables) {
    const pgTable = pgTables.get(key)!
    const props = (t: Table) => Object.keys(getTableColumns(t)).sort()
    expect([key, props(pgTable)]).toEqual([key, props(table)])
  }
})

// Row types: identical, so a repository typed on the SQLite rows accepts the PostgreSQL ones (typecheck).
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false
type Same<S extends Table, P extends Table> = [Equal<S['$inferSelect'], P['$inferSelect']>, Equal<S['$inferInsert'], P['$inferInsert']>]
const rowTypes: Record<keyof typeof sqlite, [true, true]> = {
  users: [true, true] satisfies Same<typeof sqlite.users, typeof pg.users>,
  userBindings: [true, true] satisfies Same<typeof sqlite.userBindings, typeof pg.userBindings>,
  customOAuthProviders: [true, true] satisfies Same<typeof sqlite.customOAuthProviders, typeof pg.customOAuthProviders>,
  tasks: [true, true] satisfies Same<typeof sqlite.tasks, typeof pg.tasks>,
  userNotifySettings: [true, true] satisfies Same<typeof sqlite.userNotifySettings, typeof pg.userNotifySettings>,
  tokens: [true, true] satisfies Same<typeof sqlite.tokens, typeof pg.tokens>,
  options: [true, true] satisfies Same<typeof sqlite.options, typeof pg.options>,
  logs: [true, true] satisfies Same<typeof sqlite.logs, typeof pg.logs>,
  usageHourly: [true, true] satisfies Same<typeof sqlite.usageHourly, typeof pg.usageHourly>,
  usageHourlyModel: [true, true] satisfies Same<typeof sqlite.usageHourlyModel, typeof pg.usageHourlyModel>,
  channels: [true, true] satisfies Same<typeof sqlite.channels, typeof pg.channels>,
  abilities: [true, true] satisfies Same<typeof sqlite.abilities, typeof pg.abilities>,
  redemptions: [true, true] satisfies Same<typeof sqlite.redemptions, typeof pg.redemptions>,
  revokedSessions: [true, true] satisfies Same<typeof sqlite.revokedSessions, typeof pg.revokedSessions>,
  twoFactors: [true, true] satisfies Same<typeof sqlite.twoFactors, typeof pg.twoFactors>,
  backupCodes: [true, true] satisfies Same<typeof sqlite.backupCodes, typeof pg.backupCodes>,
  passkeys: [true, true] satisfies Same<typeof sqlite.passkeys, typeof pg.passkeys>,
  authChallenges: [true, true] satisfies Same<typeof sqlite.authChallenges, typeof pg.authChallenges>,
  emailCodes: [true, true] satisfies Same<typeof sqlite.emailCodes, typeof pg.emailCodes>,
  topups: [true, true] satisfies Same<typeof sqlite.topups, typeof pg.topups>,
  subscriptionPlans: [true, true] satisfies Same<typeof sqlite.subscriptionPlans, typeof pg.subscriptionPlans>,
  userSubscriptions: [true, true] satisfies Same<typeof sqlite.userSubscriptions, typeof pg.userSubscriptions>,
  billingPreferences: [true, true] satisfies Same<typeof sqlite.billingPreferences, typeof pg.billingPreferences>,
}

test('every table has its row-type check above', () => {
  expect(Object.keys(rowTypes).sort()).toEqual([...sqliteTables.keys()].sort())
})
