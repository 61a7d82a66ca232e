import { join, resolve } from 'node:path'
import { VERSION } from './version'

export interface Config {
  readonly port: number
  readonly hostname: string
  readonly dataDir: string
  readonly sqlitePath: string
  readonly sessionSecret: string | undefined
  readonly cryptoSecret: string | undefined
  readonly rootUsername: string
  readonly rootPassword: string | undefined
  readonly maxBodyBytes: number
  readonly cookieSecure: boolean | undefined
  readonly trustProxy: boolean
  /** commit usage logs and quota moves on a writer thread (see WRITER_THREAD in HELP) */
  readonly writerThread: boolean
}

export type Env = Record<string, string | undefined>

export class ConfigError extends Error {}

export const HELP = `Tollgate ${VERSION}: a self-hosted LLM API gateway

Usage: tollgate [--port N] [--data-dir DIR] [--help] [--version]
       tollgate import new-api --from <source> [--dry-run] [--logs-since DATE] [--merge]   (see tollgate import --help)

Environment:
  PORT              port to listen on (3000)
  HOST              address to bind (0.0.0.0)
  DATA_DIR          data folder (./data); the database is DATA_DIR/tollgate.db
  SQLITE_PATH       database file, overrides DATA_DIR/tollgate.db
  SESSION_SECRET    secret for session cookies (generated into DATA_DIR if unset)
  CRYPTO_SECRET     secret for encrypting channel keys (generated into DATA_DIR if unset)
  ROOT_USERNAME     name of the first user (root)
  ROOT_PASSWORD     password of the first user; without it the first visit runs setup
  MAX_BODY_MB       largest accepted request body in MiB (32)
  COOKIE_SECURE     true/false: force the Secure cookie flag (default: when served over HTTPS)
  TRUST_PROXY       true: take the client IP from X-Forwarded-For
  WRITER_THREAD     true/false: write usage logs and quota moves on their own thread (default: true
                    with 4 or more CPUs; with fewer the thread competes with requests for the cores)
`

export type CliAction =
  | { kind: 'help' }
  | { kind: 'version' }
  | { kind: 'serve'; config: Config }
  /** `tollgate import …`: its own arguments (src/import/cli.ts parses them) */
  | { kind: 'import'; argv: readonly string[] }

/** Parse flags and environment into one frozen config; flags win over the environment. */
export function parseCli(argv: readonly string[], env: Env): CliAction {
  if (argv[0] === 'import') return { kind: 'import', argv: argv.slice(1) }
  const flags: Record<string, string> = {}
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!
    if (arg === '--help' || arg === '-h') return { kind: 'help' }
    if (arg === '--version' || arg === '-v') return { kind: 'version' }
    const match = /^--(port|data-dir)(?:=(.*))?$/.exec(arg)
    if (!match) throw new ConfigError(`unknown argument: ${arg}`)
    const value = match[2] ?? argv[++i]
    if (value === undefined) throw new ConfigError(`--${match[1]} needs a value`)
    flags[match[1]!] = value
  }
  return { kind: 'serve', config: loadConfig(env, flags) }
}

export function loadConfig(env: Env, flags: Record<string, string> = {}): Config {
  const dataDir = resolve(flags['data-dir'] ?? env.DATA_DIR ?? './data')
  return Object.freeze({
    port: parsePort(flags.port ?? env.PORT ?? '3000'),
    hostname: env.HOST || '0.0.0.0',
    dataDir,
    sqlitePath: env.SQLITE_PATH ? resolve(env.SQLITE_PATH) : join(dataDir, 'tollgate.db'),
    sessionSecret: env.SESSION_SECRET || undefined,
    cryptoSecret: env.CRYPTO_SECRET || undefined,
    rootUsername: env.ROOT_USERNAME || 'root',
    rootPassword: env.ROOT_PASSWORD || undefined,
    maxBodyBytes: parsePositive(env.MAX_BODY_MB ?? '32', 'MAX_BODY_MB') * 1024 * 1024,
    cookieSecure: parseBool(env.COOKIE_SECURE, 'COOKIE_SECURE'),
    trustProxy: parseBool(env.TRUST_PROXY, 'TRUST_PROXY') ?? false,
    writerThread: parseBool(env.WRITER_THREAD, 'WRITER_THREAD') ?? navigator.hardwareConcurrency >= 4,
  })
}

function parsePort(raw: string): number {
  const port = Number(raw)
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new ConfigError(`invalid port: ${raw}`)
  return port
}

function parsePositive(raw: string, name: string): number {
  const n = Number(raw)
  if (!Number.isFinite(n) || n <= 0) throw new ConfigError(`${name} must be a positive number, got ${raw}`)
  return n
}

function parseBool(raw: string | undefined, name: string): boolean | undefined {
  if (raw === undefined || raw === '') return undefined
  if (/^(1|true|yes|on)$/i.test(raw)) return true
  if (/^(0|false|no|off)$/i.test(raw)) return false
  throw new ConfigError(`${name} must be true or false, got ${raw}`)
}
