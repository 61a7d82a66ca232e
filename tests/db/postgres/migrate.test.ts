/**
 * PostgreSQL migrations on a real server (tests/helpers/pg-server.ts), a fresh database per test: applied
 * once, idempotent, serialized across connections by the advisory lock, refused when a newer Tollgate wrote
 * the schema. And the pool's settings as the server sees them.
 */
import { SQL } from 'bun'
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { getTableConfig } from 'drizzle-orm/pg-core'
import { MIGRATION_DIRS, renderMigrationIndex } from '../../../scripts/embed-migrations'
import { NewerDatabaseError } from '../../../src/db/sqlite/migrate'
import { closePostgres, openPostgres } from '../../../src/db/postgres/client'
import { appliedMigrations, migratePostgres, MIGRATION_LOCK } from '../../../src/db/postgres/migrate'
import { migrations } from '../../../src/db/postgres/migrations'
import * as schema from '../../../src/db/postgres/schema'
import { users } from '../../../src/db/postgres/schema'
import { quotaHolds } from '../../../src/db/postgres/schema/quota-holds'
import { planHolds } from '../../../src/db/postgres/schema/plan-holds'
import { hasPostgres, NO_POSTGRES, sharedPostgres, type PgServer } from '../../helpers/pg-server'

const describePg = hasPostgres() ? describe : describe.skip
if (!hasPostgres()) console.warn(`tests/db/postgres/migrate: ${NO_POSTGRES}`)

// the SQLite twin's tables and the PostgreSQL-only ones (quota holds)
const TABLES = [...Object.values(schema), quotaHolds, planHolds].map((t) => getTableConfig(t))

describePg('PostgreSQL migrations', () => {
  let server: PgServer
  const clients: SQL[] = []
  const fresh = async (options: ConstructorParameters<typeof SQL>[0] & object = {}) => {
    const client = new SQL({ url: await server.createDatabase(), ...options })
    clients.push(client)
    return client
  }
  beforeAll(async () => {
    server = await sharedPostgres()
  }, 60_000)
  afterAll(async () => {
    for (const client of clients) await client.close()
  })

  test('a fresh database gets every table, column, index and constraint of the schema', async () => {
    const sql = await fresh()
    expect(await migratePostgres(sql)).toEqual({ applied: migrations.map((m) => m.tag) })
    const tables = ((await sql`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1`) as { table_name: string }[]).map((r) => r.table_name)
    expect(tables).toEqual(['__tollgate_migrations', ...TABLES.map((t) => t.name)].sort())
    const columns = (await sql`SELECT table_name, column_name, data_type FROM information_schema.columns WHERE table_schema = 'public'`) as { table_name: string; column_name: string; data_type: string }[]
    for (const table of TABLES) {
      expect([table.name, columns.filter((c) => c.table_name === table.name).map((c) => c.column_name).sort()]).toEqual([table.name, table.columns.map((c) => c.name).sort()])
    }
    const typeOf = (table: string, column: string) => columns.find((c) => c.table_name === table && c.column_name === column)?.data_type
    expect([typeOf('users', 'quota'), typeOf('tokens', 'remain_quota'), typeOf('logs', 'id'), typeOf('tokens', 'expired_time')]).toEqual(['bigint', 'bigint', 'bigint', 'bigint'])
    expect(typeOf('tokens', 'unlimited_quota')).toBe('boolean')
    const indexes = ((await sql`SELECT indexname FROM pg_indexes WHERE schemaname = 'public'`) as { indexname: string }[]).map((r) => r.indexname)
    for (const index of TABLES.flatMap((t) => t.indexes.map((i) => i.config.name!))) expect(indexes).toContain(index)
    for (const unique of ['users_username_unique', 'tokens_key_hash_unique', 'redemptions_key_hash_unique']) expect(indexes).toContain(unique)
    // the foreign keys cascade as SQLite's do
    await sql`INSERT INTO users (username, password) VALUES ('a', 'x')`
    await sql`INSERT INTO tokens (user_id, key_hash, key_hint) VALUES (1, 'h', 'sk-…')`
    await sql`DELETE FROM users`
    expect(await sql`SELECT count(*)::int AS n FROM tokens`).toEqual([{ n: 0 }])
  })

  test('a second run is a no-op and keeps the data', async () => {
    const sql = await fresh()
    await migratePostgres(sql)
    await sql`INSERT INTO options (key, value) VALUES ('SystemName', 'kept')`
    expect(await migratePostgres(sql)).toEqual({ applied: [] })
    expect(await sql`SELECT value FROM options`).toEqual([{ value: 'kept' }])
    expect((await appliedMigrations(sql)).map((r) => r.tag)).toEqual(migrations.map((m) => m.tag))
  })

  test('two nodes migrating at once: the lock lets one apply each migration, the other finds it done', async () => {
    const url = await server.createDatabase()
    const [a, b] = [new SQL({ url }), new SQL({ url })]
    clients.push(a, b)
    // slow enough that, without the lock, both would read an empty ledger and the second CREATE TABLE would fail
    const slow = [{ ...migrations[0]!, sql: `SELECT pg_sleep(0.4);\n--> statement-breakpoint\n${migrations[0]!.sql}` }, ...migrations.slice(1)]
    const results = await Promise.all([migratePostgres(a, slow), migratePostgres(b, slow)])
    const applied = results.map((r) => r.applied.length).sort()
    expect(applied).toEqual([0, migrations.length])
    expect(await a`SELECT count(*)::int AS n FROM __tollgate_migrations`).toEqual([{ n: migrations.length }])
    // and the lock is free again (released, not left on a pooled connection)
    expect(await a`SELECT pg_try_advisory_lock(${MIGRATION_LOCK}) AS got`).toEqual([{ got: true }])
    await a`SELECT pg_advisory_unlock(${MIGRATION_LOCK})`
  })

  test('a ledger row this version does not know is a newer schema: refused, nothing touched, lock released', async () => {
    const sql = await fresh({ max: 1 })
    await sql`CREATE TABLE __tollgate_migrations (idx integer PRIMARY KEY, tag text NOT NULL, applied_at bigint NOT NULL)`
    await sql`INSERT INTO __tollgate_migrations VALUES (999, '0999_future', 0)`
    const refused = migratePostgres(sql)
    await expect(refused).rejects.toThrow(NewerDatabaseError)
    await expect(migratePostgres(sql)).rejects.toThrow(/written by a newer Tollgate \(migration 0999_future is unknown to this version\); upgrade Tollgate or restore a backup/)
    expect(await sql`SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = 'public'`).toEqual([{ n: 1 }])
    // max: 1: the one pooled connection that held the lock must have given it back
    expect(await sql`SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND granted`).toEqual([{ n: 0 }])
  })

  test('a failing migration rolls back completely and is not recorded', async () => {
    const sql = await fresh()
    const broken = [{ index: 0, tag: '0000_broken', sql: 'CREATE TABLE a (x integer);\n--> statement-breakpoint\nCREATE TABLE oops (' }]
    await expect(migratePostgres(sql, broken)).rejects.toThrow(/syntax error/)
    expect(await sql`SELECT to_regclass('a') IS NULL AS gone`).toEqual([{ gone: true }])
    expect(await sql`SELECT count(*)::int AS n FROM __tollgate_migrations`).toEqual([{ n: 0 }])
  })

  test('the pool: statement timeout, application name and the URL’s database (even with PGDATABASE set)', async () => {
    const url = await server.createDatabase()
    const saved = process.env.PGDATABASE
    process.env.PGDATABASE = 'postgres'
    const db = openPostgres(url, { poolSize: 3, statementTimeoutMs: 250, applicationName: 'tollgate-test' })
    try {
      expect(await db.$client`SELECT current_database() = ${new URL(url).pathname.slice(1)} AS ours, current_setting('application_name') AS app`).toEqual([{ ours: true, app: 'tollgate-test' }])
      await expect(db.$client`SELECT pg_sleep(1)`).rejects.toThrow(/statement timeout/)
      await migratePostgres(db.$client)
      // quotas past 2^31 (and ids, times) come back as the same JavaScript numbers
      await db.insert(users).values({ username: 'big', password: 'x', quota: 2 ** 40 + 7, createdTime: 4_102_444_800 })
      const [row] = await db.select().from(users)
      expect([row!.quota, row!.createdTime, row!.id]).toEqual([2 ** 40 + 7, 4_102_444_800, 1])
    } finally {
      if (saved === undefined) delete process.env.PGDATABASE
      else process.env.PGDATABASE = saved
      await closePostgres(db)
    }
  })
})

test('the embedded PostgreSQL migration index matches drizzle-kit output', async () => {
  const current = await Bun.file(`${MIGRATION_DIRS.postgres}/index.ts`).text()
  expect(current).toBe(renderMigrationIndex(MIGRATION_DIRS.postgres))
})
