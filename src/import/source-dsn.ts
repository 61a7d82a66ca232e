import { redactDsn } from '../redact'

/**
 * Where the new-api / one-api database is: the `--from` argument. Accepted forms:
 *   - a SQLite file: `./one-api.db`, `/data/one-api.db?_busy_timeout=30000` (new-api's SQLITE_PATH), `sqlite:///abs/path.db`, `file:path.db`
 *   - PostgreSQL: `postgres://user:pass@host:5432/db` (`postgresql://` too; `sslmode` in the query is honoured)
 *   - MySQL / MariaDB: `mysql://user:pass@host:3306/db` (`mariadb://`), or Go's DSN as new-api's SQL_DSN writes it:
 *     `user:pass@tcp(host:3306)/db?charset=utf8mb4&parseTime=True`, `user:pass@unix(/run/mysqld/mysqld.sock)/db`, `user@/db`
 */
export type SourceSpec =
  | { kind: 'sqlite'; path: string; display: string }
  | { kind: 'postgres' | 'mysql'; connection: NetworkConnection; display: string }

export interface NetworkConnection {
  hostname?: string
  port?: number
  /** unix socket path (MySQL `unix(…)`, or PostgreSQL's `?host=/dir`) */
  path?: string
  username: string
  password: string
  database: string
  tls?: 'disable' | 'prefer' | 'require' | 'verify-ca' | 'verify-full'
}

export class SourceSpecError extends Error {}

export function parseSource(text: string): SourceSpec {
  const raw = text.trim()
  if (!raw) throw new SourceSpecError('--from needs a database: a SQLite file, postgres://…, mysql://… or user:pass@tcp(host:3306)/db')
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(raw)?.[1]?.toLowerCase()
  if (scheme === 'postgres' || scheme === 'postgresql') return postgresUrl(raw)
  if (scheme === 'mysql' || scheme === 'mysql2' || scheme === 'mariadb') return mysqlUrl(raw)
  if (scheme === 'sqlite' || scheme === 'file') return sqliteFile(raw.replace(/^(sqlite|file):(\/\/)?/i, ''), raw)
  if (isGoDsn(raw)) return goMysqlDsn(raw)
  if (scheme && scheme.length > 1 && raw.includes('://')) {
    throw new SourceSpecError(`--from: unsupported database scheme "${scheme}:" (use a SQLite file, postgres://, mysql:// or Go's user:pass@tcp(host:port)/db)`)
  }
  return sqliteFile(raw, raw)
}

/** Go's mysql DSN: `[user[:password]@][net[(addr)]]/dbname[?params]` with a `tcp(`/`unix(` address or an empty one (`@/db`). */
function isGoDsn(raw: string): boolean {
  return /@(tcp6?|unix)\(/.test(raw) || /^[^/@]+@\/[^/]/.test(raw)
}

function sqliteFile(pathText: string, original: string): SourceSpec {
  // new-api's SQLITE_PATH carries driver options after `?` (`one-api.db?_busy_timeout=30000`)
  const path = decodeURIComponent(pathText.split('?')[0]!)
  if (!path) throw new SourceSpecError(`--from: no SQLite file in "${redactDsn(original)}"`)
  // a DSN in a form not recognised above lands here: its password must not be printed as a "file name"
  return { kind: 'sqlite', path, display: redactDsn(path) }
}

function postgresUrl(raw: string): SourceSpec {
  const url = parseUrl(raw)
  const params = url.searchParams
  const socketDir = params.get('host') ?? undefined
  const connection: NetworkConnection = {
    hostname: url.hostname ? decodeURIComponent(url.hostname) : socketDir ? undefined : 'localhost',
    port: url.port ? Number(url.port) : 5432,
    path: socketDir,
    username: decodeURIComponent(url.username) || 'postgres',
    password: decodeURIComponent(url.password),
    database: decodeURIComponent(url.pathname.replace(/^\//, '')) || decodeURIComponent(url.username) || 'postgres',
    tls: sslMode(params.get('sslmode')),
  }
  return { kind: 'postgres', connection, display: shownUrl(url) }
}

function mysqlUrl(raw: string): SourceSpec {
  const url = parseUrl(raw)
  const database = decodeURIComponent(url.pathname.replace(/^\//, ''))
  if (!database) throw new SourceSpecError('--from: the MySQL URL names no database (mysql://user:pass@host:3306/<db>)')
  const connection: NetworkConnection = {
    hostname: decodeURIComponent(url.hostname) || '127.0.0.1',
    port: url.port ? Number(url.port) : 3306,
    username: decodeURIComponent(url.username) || 'root',
    password: decodeURIComponent(url.password),
    database,
    tls: mysqlTls(url.searchParams.get('tls') ?? url.searchParams.get('ssl-mode') ?? url.searchParams.get('sslmode')),
  }
  return { kind: 'mysql', connection, display: shownUrl(url) }
}

/**
 * Go's DSN, parsed the way go-sql-driver/mysql does: the database after the LAST `/` (a password or a socket
 * path may contain `/`), the user info before the LAST `@` before it, user and password split at the first `:`.
 */
function goMysqlDsn(raw: string): SourceSpec {
  const query = raw.indexOf('?', raw.lastIndexOf('/'))
  const head = query >= 0 ? raw.slice(0, query) : raw
  const params = new URLSearchParams(query >= 0 ? raw.slice(query + 1) : '')
  const slash = head.lastIndexOf('/')
  if (slash < 0) throw new SourceSpecError(`--from: "${redactDsn(raw)}" is not a MySQL DSN (user:pass@tcp(host:3306)/db)`)
  const database = head.slice(slash + 1)
  const before = head.slice(0, slash)
  const at = before.lastIndexOf('@')
  const userInfo = at >= 0 ? before.slice(0, at) : ''
  const address = at >= 0 ? before.slice(at + 1) : before
  const colon = userInfo.indexOf(':')
  const username = colon >= 0 ? userInfo.slice(0, colon) : userInfo
  const password = colon >= 0 ? userInfo.slice(colon + 1) : ''
  const net = /^(tcp6?|unix)\((.*)\)$/.exec(address)
  if (address && !net) throw new SourceSpecError(`--from: unsupported MySQL address "${address}" (use tcp(host:port) or unix(/path))`)
  if (!database) throw new SourceSpecError('--from: the MySQL DSN names no database (…/<db>)')
  const connection: NetworkConnection = { username: username || 'root', password, database, tls: mysqlTls(params.get('tls')) }
  if (net?.[1] === 'unix') connection.path = net[2]
  else {
    const { host, port } = splitHostPort(net?.[2] ?? '')
    connection.hostname = host || '127.0.0.1'
    connection.port = port ?? 3306
  }
  return { kind: 'mysql', connection, display: redactDsn(raw) }
}

function splitHostPort(text: string): { host: string; port: number | undefined } {
  const v6 = /^\[([^\]]+)\](?::(\d+))?$/.exec(text)
  if (v6) return { host: v6[1]!, port: v6[2] ? Number(v6[2]) : undefined }
  const i = text.lastIndexOf(':')
  if (i < 0) return { host: text, port: undefined }
  const port = Number(text.slice(i + 1))
  if (!Number.isInteger(port) || port <= 0 || port > 65535) throw new SourceSpecError(`--from: bad port in "${text}"`)
  return { host: text.slice(0, i), port }
}

function parseUrl(raw: string): URL {
  try {
    return new URL(raw)
  } catch {
    throw new SourceSpecError('--from: not a valid database URL')
  }
}

function sslMode(mode: string | null): NetworkConnection['tls'] {
  if (!mode) return undefined
  if (mode === 'disable' || mode === 'prefer' || mode === 'require' || mode === 'verify-ca' || mode === 'verify-full') return mode
  if (mode === 'allow') return 'prefer'
  throw new SourceSpecError(`--from: unknown sslmode "${mode}"`)
}

function mysqlTls(value: string | null): NetworkConnection['tls'] {
  if (!value) return undefined
  const v = value.toLowerCase()
  if (v === 'false' || v === 'disabled' || v === 'disable') return 'disable'
  if (v === 'preferred' || v === 'prefer') return 'prefer'
  if (v === 'skip-verify' || v === 'true' || v === 'required' || v === 'require') return 'require'
  if (v === 'verify_ca' || v === 'verify-ca') return 'verify-ca'
  if (v === 'verify_identity' || v === 'verify-full') return 'verify-full'
  return 'require' // a named TLS config in Go's driver: at least encrypted
}

/** The URL as reports and logs may show it: the password replaced by `***` (in the userinfo and in the query). */
const shownUrl = (url: URL): string => redactDsn(url.toString())
