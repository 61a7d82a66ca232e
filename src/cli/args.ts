import { parseArgs, type ParseArgsConfig } from 'node:util'
import { ConfigError, loadConfig, redactUrl, type Config, type Env } from '../config'

/**
 * Exit codes every command keeps, so scripts can rely on them:
 * 0 done; 1 the command ran and failed (or `doctor` found a problem); 2 the command line is wrong (unknown
 * command or option, a missing argument: nothing was done); 3 refused in this state (`restore` into a data
 * directory that is not empty or whose gateway runs).
 */
export const EXIT = { ok: 0, failed: 1, usage: 2, refused: 3 } as const

export class UsageError extends Error {}

export interface Parsed {
  values: Record<string, string | boolean | undefined>
  positionals: string[]
}

/** The options every command that reads the data takes, besides its own. */
export const DATA_OPTIONS = { 'data-dir': { type: 'string' }, help: { type: 'boolean', short: 'h' } } as const

/** Parse a command's arguments (strict: unknown options and extra positionals are usage errors). */
export function parseCommandArgs(command: string, argv: readonly string[], options: NonNullable<ParseArgsConfig['options']>, positionals: { min: number; max: number }): Parsed {
  let parsed: Parsed
  try {
    parsed = parseArgs({ args: [...argv], options, strict: true, allowPositionals: true }) as Parsed
  } catch (error) {
    throw new UsageError(`${command}: ${(error as Error).message.replace(/\. To specify a positional argument.*$/s, '')}`)
  }
  if (parsed.values.help) return parsed
  if (parsed.positionals.length < positionals.min) throw new UsageError(`${command}: missing argument (see tollgate ${command} --help)`)
  if (parsed.positionals.length > positionals.max) throw new UsageError(`${command}: unexpected argument ${parsed.positionals[positionals.max]}`)
  return parsed
}

/**
 * The configuration a command reads its data with: the server's own (DATA_DIR, SQLITE_PATH, DATABASE_URL),
 * `--data-dir` first. The commands work on SQLite only for now: a PostgreSQL DATABASE_URL is a usage error
 * unless the command says it reads SQLite whatever DATABASE_URL names (`migrate-db`).
 */
export function commandConfig(parsed: Parsed, env: Env, options: { postgres?: 'allowed' } = {}): Config {
  const dataDir = parsed.values['data-dir']
  let config: Config
  try {
    config = loadConfig(env, typeof dataDir === 'string' ? { 'data-dir': dataDir } : {})
  } catch (error) {
    if (error instanceof ConfigError) throw new UsageError(error.message)
    throw error
  }
  if (config.database.kind === 'postgres' && options.postgres !== 'allowed') {
    throw new UsageError(`DATABASE_URL names a PostgreSQL database (${redactUrl(config.database.url)}), and this command works on SQLite only for now: unset DATABASE_URL to run it on the data directory`)
  }
  return config
}
