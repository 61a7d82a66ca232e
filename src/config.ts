import { join, resolve } from 'node:path'
import { parseTrustProxy, type TrustProxy } from './net/trusted-proxies'
import { parseProviderEndpoints } from './outbound/endpoints'
import { redactDsn } from './redact'
import { VERSION } from './version'

export interface Config {
  readonly port: number
  readonly hostname: string
  readonly dataDir: string
  /** the SQLite file: the database unless DATABASE_URL names PostgreSQL (then what `migrate-db` copies from) */
  readonly sqlitePath: string
  /** where the data lives: SQLite (the default), or PostgreSQL from a postgres:// DATABASE_URL */
  readonly database: DatabaseConfig
  /** REDIS_URL (redis:// or rediss://): limits, login windows, cache invalidations, job leases and channel failures shared with the other nodes; unset: this process alone */
  readonly redisUrl: string | undefined
  /** how long a background job's lease outlives a node that stopped renewing it (the time another node needs to take the job over) */
  readonly jobLeaseSeconds: number
  /** the scheduled upstream model check skips a channel checked less than this long ago (new-api's env of that name) */
  readonly upstreamModelCheckMinIntervalSeconds: number
  readonly sessionSecret: string | undefined
  readonly cryptoSecret: string | undefined
  readonly rootUsername: string
  readonly rootPassword: string | undefined
  readonly maxBodyBytes: number
  readonly cookieSecure: boolean | undefined
  /** who may tell the client's address and scheme (X-Forwarded-For/-Proto): no one, a hop count, or listed proxies */
  readonly trustProxy: TrustProxy
  /** commit usage logs and quota moves on a writer thread (see WRITER_THREAD in HELP) */
  readonly writerThread: boolean
  /** `json`: one JSON object a line (the default when stdout is not a terminal); `pretty`: for people */
  readonly logFormat: LogFormat
  readonly logLevel: LogLevel
  /** GET /metrics and the relay series behind it (METRICS_ENABLED=false: neither) */
  readonly metricsEnabled: boolean
  /** when set, GET /metrics wants `Authorization: Bearer <token>` */
  readonly metricsToken: string | undefined
  /** on SIGTERM, how long open streams may run before they are ended with their protocol's error event */
  readonly shutdownGraceSeconds: number
  /** scheduled backups: where, how often (hours; 0 = never), how many to keep */
  readonly backupDir: string | undefined
  readonly backupEveryHours: number
  readonly backupKeep: number
  /** PROVIDER_ENDPOINTS: host (or `*.suffix`) → the base URL its calls go to instead (mirrors, tests' fakes) */
  readonly providerEndpoints: ReadonlyMap<string, URL>
}

type DatabaseConfig =
  | { readonly kind: 'sqlite'; readonly path: string }
  /** `statementTimeoutMs` 0: none */
  /** `holdTtlSeconds`: a quota hold not renewed for this long (its node died) goes back to the balances */
  | { readonly kind: 'postgres'; readonly url: string; readonly poolSize: number; readonly statementTimeoutMs: number; readonly holdTtlSeconds: number }

const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const
type LogLevel = (typeof LOG_LEVELS)[number]
type LogFormat = 'json' | 'pretty'

export type Env = Record<string, string | undefined>

export class ConfigError extends Error {}

export const HELP = `Tollgate ${VERSION}: a self-hosted LLM API gateway

Usage: tollgate [serve] [--port N] [--data-dir DIR] [--help] [--version]
       tollgate import new-api --from <source> [--dry-run] [--logs-since DATE] [--merge]   (see tollgate import --help)

Environment:
  PORT              port to listen on (3000)
  HOST              address to bind (0.0.0.0)
  DATA_DIR          data folder (./data); the database is DATA_DIR/tollgate.db
  SQLITE_PATH       database file, overrides DATA_DIR/tollgate.db
  DATABASE_URL      the same as a URL: sqlite:///abs/path.db, file:path.db; or a PostgreSQL database,
                    postgres://user:pass@host:5432/db (several nodes share it: docs/deploy.md)
  REDIS_URL         redis://[user:pass@]host:6379/0 or rediss:// (TLS): limits, caches and jobs shared
                    by every node on it; required for a second node on one PostgreSQL database
  JOB_LEASE_SECONDS how soon another node takes over the background jobs of a node that died (15)
  CHANNEL_UPSTREAM_MODEL_UPDATE_MIN_CHECK_INTERVAL_SECONDS  the 30-minute upstream model check skips
                    a channel checked less than this long ago (300)
  DATABASE_POOL_SIZE  PostgreSQL connections per node (10)
  DATABASE_STATEMENT_TIMEOUT_SECONDS  PostgreSQL cancels a statement that runs longer (30; 0: never)
  QUOTA_HOLD_TTL_SECONDS  PostgreSQL: a dead node's reservations go back to the balances after this (45)
  SESSION_SECRET    secret for session cookies, at least 32 bytes (generated into DATA_DIR if unset;
                    required on PostgreSQL)
  CRYPTO_SECRET     secret for encrypting channel keys, at least 32 bytes (generated into DATA_DIR if unset;
                    required on PostgreSQL)
  ROOT_USERNAME     name of the first user (root)
  ROOT_PASSWORD     password of the first user; without it the first visit runs setup
  MAX_BODY_MB       largest accepted request body in MiB (32)
  COOKIE_SECURE     true/false: force the Secure cookie flag (default: when served over HTTPS)
  TRUST_PROXY       behind a reverse proxy: the client IP is the right-most X-Forwarded-For address
                    that is not a proxy. true (or 1): the peer is the one proxy; N: N proxies in a
                    row; or the proxies' addresses/CIDRs, comma-separated (false: the socket's peer)
  WRITER_THREAD     true/false: write usage logs and quota moves on their own thread (default: true
                    with 4 or more CPUs; with fewer the thread competes with requests for the cores)
  LOG_FORMAT        json or pretty (default: pretty on a terminal, json otherwise)
  LOG_LEVEL         trace, debug, info, warn, error, fatal or silent (info: one line per relay request
                    and per management write)
  METRICS_ENABLED   true/false: GET /metrics in the Prometheus text format (true)
  METRICS_TOKEN     when set, GET /metrics needs Authorization: Bearer <token>; unset, it answers only
                    clients on loopback that came through no proxy (403 for anyone else)
  SHUTDOWN_GRACE_SECONDS  on SIGTERM, how long open streams may finish before they are ended (30)
  BACKUP_DIR        scheduled backups go here (every 24 hours unless BACKUP_EVERY_HOURS says otherwise)
  BACKUP_EVERY_HOURS  hours between scheduled backups (default: 24 with BACKUP_DIR, else none; 0: none);
                    without BACKUP_DIR they go to DATA_DIR/backups
  BACKUP_KEEP       scheduled backups to keep, oldest deleted first (7)
  PROVIDER_ENDPOINTS  JSON host → base URL: calls to that host go there instead (a mirror, a proxy),
                    e.g. {"api.openai.com":"http://127.0.0.1:4010","*.googleapis.com":"https://gcp.mirror"};
                    the operator's targets may be private or loopback (ChannelPrivateNetworksAllowed aside)
`

export type CliAction = { kind: 'help' } | { kind: 'version' } | { kind: 'serve'; config: Config }

/** Parse `serve`'s flags and the environment into one frozen config; flags win over the environment. */
export function parseCli(argv: readonly string[], env: Env): CliAction {
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
  const postgres = env.DATABASE_URL && isPostgresUrl(env.DATABASE_URL) ? postgresOf(env.DATABASE_URL, env) : undefined
  const sqlitePath = env.SQLITE_PATH ? resolve(env.SQLITE_PATH) : env.DATABASE_URL && !postgres ? sqlitePathOf(env.DATABASE_URL) : join(dataDir, 'tollgate.db')
  const database: DatabaseConfig = postgres ?? { kind: 'sqlite', path: sqlitePath }
  return Object.freeze({
    port: parsePort(flags.port ?? env.PORT ?? '3000'),
    hostname: env.HOST || '0.0.0.0',
    dataDir,
    sqlitePath,
    database,
    redisUrl: parseRedisUrl(env.REDIS_URL),
    jobLeaseSeconds: parsePositive(env.JOB_LEASE_SECONDS || '15', 'JOB_LEASE_SECONDS'),
    upstreamModelCheckMinIntervalSeconds: parseNonNegative(env.CHANNEL_UPSTREAM_MODEL_UPDATE_MIN_CHECK_INTERVAL_SECONDS || '300', 'CHANNEL_UPSTREAM_MODEL_UPDATE_MIN_CHECK_INTERVAL_SECONDS'),
    sessionSecret: parseSecret(env.SESSION_SECRET, 'SESSION_SECRET'),
    cryptoSecret: parseSecret(env.CRYPTO_SECRET, 'CRYPTO_SECRET'),
    rootUsername: env.ROOT_USERNAME || 'root',
    rootPassword: env.ROOT_PASSWORD || undefined,
    maxBodyBytes: parsePositive(env.MAX_BODY_MB ?? '32', 'MAX_BODY_MB') * 1024 * 1024,
    cookieSecure: parseBool(env.COOKIE_SECURE, 'COOKIE_SECURE'),
    trustProxy: trustProxyOf(env.TRUST_PROXY),
    writerThread: parseBool(env.WRITER_THREAD, 'WRITER_THREAD') ?? navigator.hardwareConcurrency >= 4,
    logFormat: parseLogFormat(env.LOG_FORMAT),
    logLevel: parseLogLevel(env.LOG_LEVEL),
    metricsEnabled: parseBool(env.METRICS_ENABLED, 'METRICS_ENABLED') ?? true,
    metricsToken: env.METRICS_TOKEN || undefined,
    shutdownGraceSeconds: parseNonNegative(env.SHUTDOWN_GRACE_SECONDS ?? '30', 'SHUTDOWN_GRACE_SECONDS'),
    ...backupSchedule(env, dataDir),
    backupKeep: parseBackupKeep(env.BACKUP_KEEP ?? '7'),
    providerEndpoints: providerEndpointsOf(env.PROVIDER_ENDPOINTS),
  })
}

function providerEndpointsOf(text: string | undefined): ReadonlyMap<string, URL> {
  try {
    return parseProviderEndpoints(text)
  } catch (error) {
    throw new ConfigError((error as Error).message)
  }
}

/** DATABASE_URL as the server reads it: a SQLite file as `sqlite:///abs.db`, `sqlite://rel.db`, `file:x.db` or a plain path. */
function sqlitePathOf(url: string): string {
  const match = /^(sqlite3?|file):(?:\/\/)?(.*)$/i.exec(url)
  if (match) {
    const path = decodeURIComponent(match[2]!.split('?')[0]!)
    if (!path) throw new ConfigError(`DATABASE_URL names no file: ${url}`)
    return resolve(path)
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(url)) {
    throw new ConfigError(`DATABASE_URL must name a SQLite file (sqlite:///path/tollgate.db) or a PostgreSQL database (postgres://user:pass@host:5432/db), got ${redactUrl(url)}`)
  }
  return resolve(url)
}

export const isPostgresUrl = (url: string): boolean => /^postgres(ql)?:\/\//i.test(url)

/** A URL with its password masked, for messages (src/redact.ts). */
export const redactUrl = redactDsn

/** REDIS_URL: redis:// or rediss:// with a host; '' or unset = none. */
function parseRedisUrl(url: string | undefined): string | undefined {
  if (!url) return undefined
  let host = ''
  try {
    const parsed = new URL(url)
    if (/^rediss?:$/i.test(parsed.protocol)) host = parsed.hostname
  } catch {}
  if (!host) throw new ConfigError(`REDIS_URL must be redis://host:6379/0 or rediss://host:6380/0, got ${redactUrl(url)}`)
  return url
}

/** A postgres:// or postgresql:// DATABASE_URL, checked for a host (TLS and the rest as its query string says). */
function postgresOf(url: string, env: Env): DatabaseConfig {
  let host = ''
  try {
    host = new URL(url).hostname
  } catch {}
  if (!host) throw new ConfigError(`DATABASE_URL is not a PostgreSQL URL (postgres://user:pass@host:5432/db): ${redactUrl(url)}`)
  const poolSize = Number(env.DATABASE_POOL_SIZE || '10')
  if (!Number.isInteger(poolSize) || poolSize < 1) throw new ConfigError(`DATABASE_POOL_SIZE must be a whole number ≥ 1, got ${env.DATABASE_POOL_SIZE}`)
  const timeout = parseNonNegative(env.DATABASE_STATEMENT_TIMEOUT_SECONDS || '30', 'DATABASE_STATEMENT_TIMEOUT_SECONDS')
  const holdTtlSeconds = parsePositive(env.QUOTA_HOLD_TTL_SECONDS || '45', 'QUOTA_HOLD_TTL_SECONDS')
  return { kind: 'postgres', url, poolSize, statementTimeoutMs: Math.round(timeout * 1000), holdTtlSeconds }
}

/** BACKUP_DIR alone: daily; BACKUP_EVERY_HOURS alone: into DATA_DIR/backups; 0 hours: no schedule. */
function backupSchedule(env: Env, dataDir: string): { backupDir: string | undefined; backupEveryHours: number } {
  const hours = parseNonNegative(env.BACKUP_EVERY_HOURS || (env.BACKUP_DIR ? '24' : '0'), 'BACKUP_EVERY_HOURS')
  if (hours === 0) return { backupDir: env.BACKUP_DIR ? resolve(env.BACKUP_DIR) : undefined, backupEveryHours: 0 }
  return { backupDir: resolve(env.BACKUP_DIR || join(dataDir, 'backups')), backupEveryHours: hours }
}

function trustProxyOf(raw: string | undefined): TrustProxy {
  const parsed = parseTrustProxy(raw)
  if (parsed && 'invalid' in parsed) throw new ConfigError(`TRUST_PROXY ${parsed.invalid}`)
  return parsed
}

/** The shortest secret taken from the environment; the generated ones are 32 random bytes (43 characters). */
const MIN_SECRET_BYTES = 32

const SECRET_USE = {
  SESSION_SECRET: 'it is the HS256 key that signs the session cookies: a shorter one can be guessed offline from any cookie, and a guessed one forges a session for any user, root included (RFC 7518 §3.2: an HS256 key as long as the hash, 256 bits)',
  CRYPTO_SECRET: 'the channel keys are sealed with a key derived from it: a shorter one can be guessed offline from a copy of the database, which then opens every channel key',
} as const

/**
 * SESSION_SECRET and CRYPTO_SECRET: unset, or at least 32 bytes. Their value is never put in the message.
 * An instance that ran with a shorter CRYPTO_SECRET must set a new one and enter its channel keys again.
 */
function parseSecret(raw: string | undefined, name: keyof typeof SECRET_USE): string | undefined {
  if (!raw) return undefined
  const bytes = Buffer.byteLength(raw, 'utf8')
  if (bytes >= MIN_SECRET_BYTES) return raw
  throw new ConfigError(
    `${name} is ${bytes} bytes long; it must be at least ${MIN_SECRET_BYTES}: ${SECRET_USE[name]}. ` +
      `Generate one with \`openssl rand -base64 32\`, or unset it and Tollgate keeps a generated one in DATA_DIR`,
  )
}

function parseLogFormat(raw: string | undefined): LogFormat {
  if (raw === undefined || raw === '') return process.stdout.isTTY ? 'pretty' : 'json'
  if (raw === 'json' || raw === 'pretty') return raw
  throw new ConfigError(`LOG_FORMAT must be json or pretty, got ${raw}`)
}

function parseLogLevel(raw: string | undefined): LogLevel {
  if (raw === undefined || raw === '') return 'info'
  const level = raw.toLowerCase() as LogLevel
  if (LOG_LEVELS.includes(level)) return level
  throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got ${raw}`)
}

function parseNonNegative(raw: string, name: string): number {
  const n = Number(raw)
  if (raw.trim() === '' || !Number.isFinite(n) || n < 0) throw new ConfigError(`${name} must be a number ≥ 0, got ${raw}`)
  return n
}

function parseBackupKeep(raw: string): number {
  const n = Number(raw)
  if (!Number.isInteger(n) || n < 1) throw new ConfigError(`BACKUP_KEEP must be a whole number ≥ 1, got ${raw}`)
  return n
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
