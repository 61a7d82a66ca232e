import { join, resolve } from 'node:path'
import { ConfigError, loadConfig, type Env } from '../config'
import type { Flavor } from './channel-types'
import { runImport, type ImportOptions } from './run-import'

export const IMPORT_HELP = `Usage: tollgate import new-api --from <source> [options]

Copy a new-api or one-api gateway into this Tollgate's data directory (SQLite): users (who keep their
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

Tollgate keeps its data in SQLite only: DATABASE_URL targets do not exist yet.
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
  if (env.DATABASE_URL) {
    throw new ConfigError(
      'import: DATABASE_URL is set, but Tollgate keeps its data in SQLite only (PostgreSQL targets are not built yet); unset it to import into the data directory',
    )
  }
  const config = loadConfig(env, values['data-dir'] ? { 'data-dir': values['data-dir'] } : {})
  return {
    kind: 'run',
    options: {
      claimed: what as Flavor,
      from: values.from,
      logsFrom: values['logs-from'],
      dataDir: config.dataDir,
      sqlitePath: config.sqlitePath,
      cryptoSecret: config.cryptoSecret,
      dryRun: switches.has('dry-run'),
      merge: switches.has('merge'),
      logsSince: values['logs-since'] === undefined ? undefined : parseSince(values['logs-since']),
      reportPath: values.report ? resolve(values.report) : join(config.dataDir, 'import-report.json'),
    },
  }
}

/** `2025-01-31` (UTC midnight), an ISO date-time, or unix seconds → unix seconds. */
export function parseSince(text: string): number {
  const t = text.trim()
  if (/^\d{9,11}$/.test(t)) return Number(t)
  const ms = /^\d{4}-\d{2}-\d{2}$/.test(t) ? Date.parse(`${t}T00:00:00Z`) : Date.parse(t)
  if (!Number.isFinite(ms)) throw new ConfigError(`import: --logs-since "${text}" is not a date (2025-01-31, an ISO time or unix seconds)`)
  return Math.floor(ms / 1000)
}

/** Run `tollgate import …`; answers the process exit code. */
export async function runImportCli(argv: readonly string[], env: Env): Promise<number> {
  let command: ImportCommand
  try {
    command = parseImportArgs(argv, env)
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error
    console.error(`tollgate: ${error.message}`)
    return 1
  }
  if (command.kind === 'help') {
    console.log(IMPORT_HELP)
    return 0
  }
  try {
    const result = await runImport(command.options)
    return result.exitCode
  } catch (error) {
    // only a bad --from gets here (everything after it is caught and reported by runImport)
    console.error(`tollgate: ${(error as Error).message}`)
    return 1
  }
}
