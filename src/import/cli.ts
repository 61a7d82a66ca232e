import { join, resolve } from 'node:path'
import { EXIT } from '../cli/args'
import { ConfigError, loadConfig, redactUrl, type Env } from '../config'
import type { Flavor } from './channel-types'
import { runImport, type ImportOptions } from './run-import'
import { parseSource, SourceSpecError } from './source-dsn'

const IMPORT_HELP = `Usage: tollgate import new-api --from <source> [options]

Copy a new-api or one-api gateway into this Tollgate's database (SQLite, or PostgreSQL): users (who keep their
passwords), API keys (clients keep theirs), channels (keys encrypted), redemption codes, prices and settings.
Stop the gateway first. Which of new-api or one-api the source is, is read from its columns ('one-api' is
accepted as the word too).

  --from <source>        the new-api / one-api database: a SQLite file (one-api.db), postgres://user:pass@host/db,
                         mysql://user:pass@host:3306/db, or new-api's SQL_DSN form user:pass@tcp(host:3306)/db
  --logs-from <source>   where the logs are, when new-api kept them apart (its LOG_SQL_DSN)
  --data-dir <dir>       the Tollgate data directory (default: DATA_DIR or ./data; SQLITE_PATH is honoured)
  --dry-run              read, map and check everything, report what would happen, write nothing
  --logs-since <date>    also import usage logs and hourly usage from this date on (2025-01-31, an ISO time or
                         unix seconds); default: none
  --merge                add to a data directory that already has data (otherwise a non-empty one is refused)
  --report <file>        where to write the JSON report (default: DATA_DIR/import-report.json)

The target is the server's database: a postgres:// DATABASE_URL (then CRYPTO_SECRET must be set, the one every
node runs with; stop every node first), SQLITE_PATH, DATABASE_URL when it names a SQLite file (sqlite:///path.db),
else DATA_DIR/tollgate.db. On PostgreSQL a dry run migrates the schema as a node would, and writes no row.

Exit status: 0 done (or dry run done), 1 failed (nothing written), 2 usage error, 3 refused (the target is not
empty and there is no --merge).
`

export type ImportCommand = { kind: 'help' } | { kind: 'run'; options: ImportOptions }

const FLAGS = new Set(['from', 'logs-from', 'data-dir', 'logs-since', 'report'])
const SWITCHES = new Set(['dry-run', 'merge'])

/** `tollgate import …` arguments (after the word `import`) and the environment → what to run. */
export function parseImportArgs(argv: readonly string[], env: Env): ImportCommand {
  if (argv.length === 0 || argv.includes('--help') || argv.includes('-h')) return { kind: 'help' }
  const [what, ...rest] = argv
  if (what !== 'new-api' && what !== 'one-api') throw new ConfigError(`import: unknown source kind "${what}" (expected: tollgate import new-api --from <source>)`)
  const values: Record<string, string> = {}
  const switches = new Set<string>()
  for (let i = 0; i < rest.length; i++) {
    const match = /^--([a-z-]+)(?:=(.*))?$/.exec(rest[i]!)
    if (!match) throw new ConfigError(`import: unexpected argument ${rest[i]}`)
    const name = match[1]!
    if (SWITCHES.has(name)) {
      if (match[2] !== undefined) throw new ConfigError(`import: --${name} takes no value`)
      switches.add(name)
      continue
    }
    if (!FLAGS.has(name)) throw new ConfigError(`import: unknown option --${name}`)
    const value = match[2] ?? rest[++i]
    if (value === undefined || value === '') throw new ConfigError(`import: --${name} needs a value`)
    values[name] = value
  }
  if (!values.from) throw new ConfigError('import: --from <source> is required (a SQLite file, postgres://…, mysql://… or user:pass@tcp(host:3306)/db)')
  if (values['logs-from'] && !values['logs-since']) throw new ConfigError('import: --logs-from only matters with --logs-since <date> (logs are imported from that date on)')
  for (const flag of ['from', 'logs-from'] as const) checkSource(values[flag])
  checkTarget(env)
  const config = loadConfig(env, values['data-dir'] ? { 'data-dir': values['data-dir'] } : {})
  const databaseUrl = config.database.kind === 'postgres' ? config.database.url : undefined
  if (databaseUrl && !config.cryptoSecret) {
    throw new ConfigError('import: DATABASE_URL names a PostgreSQL database: set CRYPTO_SECRET to the one the nodes run with (the channel keys are sealed with it)')
  }
  return {
    kind: 'run',
    options: {
      claimed: what as Flavor,
      from: values.from,
      logsFrom: values['logs-from'],
      dataDir: config.dataDir,
      sqlitePath: config.sqlitePath,
      databaseUrl,
      cryptoSecret: config.cryptoSecret,
      dryRun: switches.has('dry-run'),
      merge: switches.has('merge'),
      logsSince: values['logs-since'] === undefined ? undefined : parseSince(values['logs-since']),
      reportPath: values.report ? resolve(values.report) : join(config.dataDir, 'import-report.json'),
    },
  }
}

/** A --from / --logs-from that names no database it can read is a usage error, found before anything runs. */
function checkSource(text: string | undefined): void {
  if (text === undefined) return
  try {
    parseSource(text)
  } catch (error) {
    if (error instanceof SourceSpecError) throw new ConfigError(`import: ${error.message}`)
    throw error
  }
}

/**
 * The target is the server's own database: a postgres:// DATABASE_URL, SQLITE_PATH, a SQLite DATABASE_URL
 * (sqlite:///…, file:…) or DATA_DIR/tollgate.db. A DATABASE_URL naming another engine is refused even beside
 * SQLITE_PATH, rather than write somewhere the operator did not mean.
 */
function checkTarget(env: Env): void {
  const url = env.DATABASE_URL?.trim()
  if (!url) return
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(url)?.[1]?.toLowerCase()
  if (scheme === undefined || scheme === 'sqlite' || scheme === 'sqlite3' || scheme === 'file' || scheme === 'postgres' || scheme === 'postgresql') return
  const shown = redactUrl(url)
  throw new ConfigError(
    `import: DATABASE_URL names a ${scheme} database (${shown}) as the target, but Tollgate keeps its data in SQLite or PostgreSQL: unset DATABASE_URL to import into DATA_DIR/tollgate.db, or point it at a SQLite file (sqlite:///path/tollgate.db) or a postgres:// database`,
  )
}

/** `2025-01-31` (UTC midnight), an ISO date-time, or unix seconds → unix seconds. */
export function parseSince(text: string): number {
  const t = text.trim()
  if (/^\d{9,11}$/.test(t)) return Number(t)
  const ms = /^\d{4}-\d{2}-\d{2}$/.test(t) ? Date.parse(`${t}T00:00:00Z`) : Date.parse(t)
  if (!Number.isFinite(ms)) throw new ConfigError(`import: --logs-since "${text}" is not a date (2025-01-31, an ISO time or unix seconds)`)
  return Math.floor(ms / 1000)
}

/** Run `tollgate import …`; answers the process exit code (src/cli/args.ts's EXIT: 2 usage, 3 refused). */
export async function runImportCli(argv: readonly string[], env: Env): Promise<number> {
  let command: ImportCommand
  try {
    command = parseImportArgs(argv, env)
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error
    console.error(`tollgate: ${error.message}`)
    return EXIT.usage
  }
  if (command.kind === 'help') {
    console.log(IMPORT_HELP)
    return EXIT.ok
  }
  return (await runImport(command.options)).exitCode
}
