import { existsSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { isPostgresUrl, redactUrl, type Config, type Env } from '../config'
import { closeDatabase, openDatabase } from '../db/sqlite/client'
import { migrate, NewerDatabaseError } from '../db/sqlite/migrate'
import { closePostgres, openPostgres } from '../db/postgres/client'
import { copySqliteToPostgres, CopyMismatchError, TargetNotEmptyError, type CopyReport } from '../db/postgres/copy-from-sqlite'
import { askStatus } from './control'
import { commandConfig, DATA_OPTIONS, EXIT, parseCommandArgs, UsageError } from './args'
import { findSecrets, secretsAdvice } from './migrate-db-secrets'

export const MIGRATE_DB_HELP = `Usage: tollgate migrate-db --to postgres://user:pass@host:5432/db [--data-dir DIR | --from FILE.db]
                          [--show-secrets] [--batch-rows N]

Copy a SQLite instance (every table: users, tokens, channels and abilities, options, logs and hourly usage,
redemptions, revoked sessions) into an EMPTY PostgreSQL database, for the nodes of a multi-node deployment.
The gateway must be stopped (writes after the copy would be lost). The source is brought to this version's
schema first, as a start would; the target gets this version's PostgreSQL migrations. Then everything is
copied in ONE PostgreSQL transaction, in batches: the row counts and quota sums of every table are compared
before it commits, and the identity sequences are moved past the copied ids. If anything fails, nothing is
kept and the database is empty again: run the command again to resume.

The channel keys are sealed with the instance's crypto secret and the sessions signed with its session
secret; SQLite generated both under the data directory. Every node needs them as SESSION_SECRET and
CRYPTO_SECRET: the command says where they are (it prints their values only with --show-secrets).

  --to URL          the PostgreSQL database (postgres:// or postgresql://; TLS by ?sslmode=require).
                    Default: DATABASE_URL, when it names PostgreSQL
  --data-dir DIR    the instance to copy (default: DATA_DIR or ./data; SQLITE_PATH is honoured)
  --from FILE.db    copy this SQLite file instead (a backup, say; its FILE.db.secrets is read when present)
  --show-secrets    print SESSION_SECRET=… and CRYPTO_SECRET=… lines to put in the nodes' environment
  --batch-rows N    rows a batch insert (1000)

Exit codes: 0 copied and verified, 1 failed (nothing kept), 2 usage, 3 refused: the target database is not
empty, or a gateway runs on the data directory.
`

const OPTIONS = {
  ...DATA_OPTIONS,
  to: { type: 'string' },
  from: { type: 'string' },
  'show-secrets': { type: 'boolean' },
  'batch-rows': { type: 'string' },
} as const

export async function runMigrateDb(argv: readonly string[], env: Env): Promise<number> {
  const parsed = parseCommandArgs('migrate-db', argv, OPTIONS, { min: 0, max: 0 })
  if (parsed.values.help) return void console.log(MIGRATE_DB_HELP), EXIT.ok
  // the source is SQLite whatever DATABASE_URL names: a postgres:// one is the default target
  const config = commandConfig(parsed, env, { postgres: 'allowed' })
  const to = targetOf(parsed.values.to, config)
  const from = typeof parsed.values.from === 'string' ? resolve(parsed.values.from) : undefined
  if (from && typeof parsed.values['data-dir'] === 'string') throw new UsageError('migrate-db: --from and --data-dir both name the source: give one')
  const batchRows = parsed.values['batch-rows'] === undefined ? 1000 : Number(parsed.values['batch-rows'])
  if (!Number.isInteger(batchRows) || batchRows < 1) throw new UsageError(`migrate-db: --batch-rows must be a whole number ≥ 1, got ${parsed.values['batch-rows']}`)
  const sqlitePath = from ?? config.sqlitePath
  const dataDir = from ? dirname(from) : config.dataDir

  const running = await askStatus({ dataDir })
  if (running) {
    console.error(`tollgate migrate-db: a gateway (pid ${running.pid}) runs on ${dataDir}: stop it first, or what it writes after the copy is lost`)
    return EXIT.refused
  }
  if (!existsSync(sqlitePath)) {
    console.error(`tollgate migrate-db: no database at ${sqlitePath} (wrong --data-dir or --from)`)
    return EXIT.failed
  }
  const report = await copy(sqlitePath, to, batchRows)
  if (typeof report === 'number') return report
  printReport(report, sqlitePath, to)
  const secrets = findSecrets(config, from)
  console.log('')
  console.log(await secretsAdvice(secrets, report.sealedKeySample, Boolean(parsed.values['show-secrets']), report.sealedSettings))
  return EXIT.ok
}

function targetOf(flag: string | boolean | undefined, config: Config): string {
  const url = typeof flag === 'string' ? flag : config.database.kind === 'postgres' ? config.database.url : undefined
  if (!url) throw new UsageError('migrate-db: --to postgres://user:pass@host:5432/db is required (see tollgate migrate-db --help)')
  if (!isPostgresUrl(url)) throw new UsageError(`migrate-db: --to must be a postgres:// or postgresql:// URL, got ${redactUrl(url)}`)
  try {
    new URL(url)
  } catch {
    throw new UsageError(`migrate-db: --to is not a valid URL (percent-encode special characters in the password): ${redactUrl(url)}`)
  }
  return url
}

/** The copy itself; a number is the exit code of a failure already reported. */
async function copy(sqlitePath: string, url: string, batchRows: number): Promise<CopyReport | number> {
  const source = openDatabase(sqlitePath)
  // no statement timeout: counting a large logs table may take longer than a node's limit
  const target = openPostgres(url, { poolSize: 2, statementTimeoutMs: 0, applicationName: 'tollgate migrate-db' })
  try {
    migrate(source)
    return await copySqliteToPostgres(source.$client, target.$client, {
      batchRows,
      onTable: (t) => console.error(`migrate-db: copied ${t.table} (${t.target} rows)`),
    })
  } catch (error) {
    if (error instanceof TargetNotEmptyError) {
      console.error(`tollgate migrate-db: ${error.message}; nothing was written`)
      return EXIT.refused
    }
    if (error instanceof NewerDatabaseError || error instanceof CopyMismatchError) {
      console.error(`tollgate migrate-db: ${error.message}`)
      return EXIT.failed
    }
    console.error(`tollgate migrate-db: ${redactUrl(url)}: ${(error as Error).message}; nothing was kept`)
    return EXIT.failed
  } finally {
    closeDatabase(source)
    await closePostgres(target)
  }
}

function printReport(report: CopyReport, sqlitePath: string, url: string): void {
  console.log(`copied ${sqlitePath} into ${redactUrl(url)} in ${(report.ms / 1000).toFixed(1)} s, in one transaction`)
  if (report.migrated.length > 0) console.log(`PostgreSQL migrations applied first: ${report.migrated.join(', ')}`)
  console.log(`  ${'table'.padEnd(20)}${'sqlite'.padStart(12)}${'postgres'.padStart(12)}  next id`)
  for (const t of report.tables) {
    console.log(`  ${t.table.padEnd(20)}${String(t.source).padStart(12)}${String(t.target).padStart(12)}  ${t.nextId ?? '-'}`)
  }
  console.log('every row count and quota sum matches')
  if (report.nulReplaced > 0) console.log(`${report.nulReplaced} text values held NUL characters, which PostgreSQL cannot store: copied with U+FFFD in their place`)
}
