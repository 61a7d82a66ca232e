import { Database } from 'bun:sqlite'
import { chmodSync, chownSync, closeSync, existsSync, fsyncSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import type { Config } from '../config'
import { migrations } from '../db/sqlite/migrations'

export const SESSION_SECRET_FILE = 'session.secret'
export const CRYPTO_SECRET_FILE = 'crypto.secret'

export class BackupError extends Error {}

export interface SnapshotResult {
  path: string
  bytes: number
  ms: number
  secretsPath?: string
}

export interface SnapshotOptions {
  secrets: boolean
  force?: boolean
  /** called once the temporary file exists, before the copy is written into it (tests look at its mode) */
  onTempFile?: (path: string) => void
}

/**
 * A consistent copy of the live database, taken while the gateway runs: `VACUUM INTO` reads one snapshot of
 * the file in a read transaction on its own connection (WAL lets the gateway go on writing meanwhile) and
 * writes a compact copy; it lands under a temporary name, is checked with `PRAGMA integrity_check`, made
 * durable and only then renamed to `target` (mode 0600: it holds password and key hashes). Unless `secrets`
 * is false, the two secrets go next to it in `<target>.secrets` (0600), so a restore brings back sessions and
 * readable channel keys.
 */
export function snapshotDatabase(config: Pick<Config, 'sqlitePath' | 'dataDir' | 'sessionSecret' | 'cryptoSecret'>, target: string, options: SnapshotOptions): SnapshotResult {
  if (!existsSync(config.sqlitePath)) throw new BackupError(`no database at ${config.sqlitePath}`)
  if (existsSync(target) && !options.force) throw new BackupError(`${target} exists (choose another name, or --force to replace it)`)
  const secrets = options.secrets ? currentSecrets(config) : undefined
  if (options.secrets && (!secrets?.session || !secrets.crypto)) {
    throw new BackupError(`the secrets are neither in the environment nor in ${config.dataDir} (${SESSION_SECRET_FILE}, ${CRYPTO_SECRET_FILE}); back up with --no-secrets to go on without them`)
  }
  mkdirSync(dirname(target), { recursive: true, mode: 0o700 })
  const started = performance.now()
  const temp = join(dirname(target), `.${basename(target)}.${process.pid}.tmp`)
  rmSync(temp, { force: true })
  // born 0600, whatever the umask: VACUUM INTO writes into the empty file it finds, so the copy (every hash and
  // sealed key) is never readable by others, not even while it is being written
  closeSync(openSync(temp, 'wx', 0o600))
  options.onTempFile?.(temp)
  const source = new Database(config.sqlitePath, { readonly: true })
  try {
    source.exec('PRAGMA busy_timeout = 5000')
    source.query('VACUUM INTO ?').run(temp)
  } catch (error) {
    rmSync(temp, { force: true })
    throw new BackupError(`the snapshot failed: ${(error as Error).message}`)
  } finally {
    source.close()
  }
  const check = integrityOf(temp)
  if (check !== 'ok') {
    rmSync(temp, { force: true })
    throw new BackupError(`the snapshot failed its integrity check: ${check}`)
  }
  chmodSync(temp, 0o600)
  syncFile(temp)
  renameSync(temp, target)
  syncFile(dirname(target))
  let secretsPath: string | undefined
  if (secrets?.session && secrets.crypto) {
    secretsPath = `${target}.secrets`
    writeSecretFile(secretsPath, `# Tollgate secrets of ${basename(target)}: keep them apart from it, and private\nSESSION_SECRET=${secrets.session}\nCRYPTO_SECRET=${secrets.crypto}\n`)
  }
  return { path: target, bytes: statSync(target).size, ms: performance.now() - started, secretsPath }
}

/** `PRAGMA integrity_check` of a database file: 'ok', or the first problems SQLite names. */
function integrityOf(path: string): string {
  const db = new Database(path, { readonly: true })
  try {
    const rows = db.query<{ integrity_check: string }, []>('PRAGMA integrity_check').all()
    return rows.map((r) => r.integrity_check).slice(0, 5).join('; ')
  } finally {
    db.close()
  }
}

/** The secrets the server would use: the environment's, else the files in the data dir. */
export function currentSecrets(config: Pick<Config, 'dataDir' | 'sessionSecret' | 'cryptoSecret'>): { session?: string; crypto?: string } {
  return {
    session: config.sessionSecret ?? readSecret(join(config.dataDir, SESSION_SECRET_FILE)),
    crypto: config.cryptoSecret ?? readSecret(join(config.dataDir, CRYPTO_SECRET_FILE)),
  }
}

function readSecret(path: string): string | undefined {
  try {
    const value = readFileSync(path, 'utf8').trim()
    return value.length >= 32 ? value : undefined
  } catch {
    return undefined
  }
}

/** `<backup>.secrets` as written by `snapshotDatabase` (KEY=value lines). */
export function readSecretsFile(path: string): { session: string; crypto: string } {
  const values: Record<string, string> = {}
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const match = /^\s*([A-Z_]+)\s*=\s*(.*?)\s*$/.exec(line)
    if (match) values[match[1]!] = match[2]!
  }
  if (!values.SESSION_SECRET || !values.CRYPTO_SECRET) throw new BackupError(`${path} does not hold SESSION_SECRET and CRYPTO_SECRET`)
  return { session: values.SESSION_SECRET, crypto: values.CRYPTO_SECRET }
}

export interface RestoreResult {
  sqlitePath: string
  secretsRestored: boolean
  migrationsBehind: number
}

/**
 * Put a backup in place in an empty data directory of a stopped gateway: the backup is checked first
 * (integrity, a Tollgate database, not written by a newer version), copied under a temporary name, made
 * durable and renamed; the secrets file, when there is one, becomes the data dir's secret files (0600).
 * The next start applies any migration the backup lacks. Whoever runs it as root gets the files owned by the
 * data dir's owner, so the service user can open them.
 */
export function restoreDatabase(config: Pick<Config, 'sqlitePath' | 'dataDir'>, source: string, options: { secretsFile?: string | false }): RestoreResult {
  if (!existsSync(source)) throw new BackupError(`no backup at ${source}`)
  const occupied = occupiedBy(config)
  if (occupied.length > 0) throw new BackupError(`${config.dataDir} is not empty (${occupied.join(', ')}): restore into a new, empty data directory`, { cause: 'not-empty' })
  const check = integrityOf(source)
  if (check !== 'ok') throw new BackupError(`${source} fails its integrity check: ${check}`)
  const behind = migrationsBehind(source)
  let secrets: { session: string; crypto: string } | undefined
  const secretsFile = options.secretsFile === undefined ? `${source}.secrets` : options.secretsFile
  if (secretsFile && (options.secretsFile !== undefined || existsSync(secretsFile))) secrets = readSecretsFile(secretsFile)

  mkdirSync(config.dataDir, { recursive: true, mode: 0o700 })
  mkdirSync(dirname(config.sqlitePath), { recursive: true, mode: 0o700 })
  const temp = `${config.sqlitePath}.restore-${process.pid}.tmp`
  writeFileSync(temp, readFileSync(source), { mode: 0o600 })
  syncFile(temp)
  renameSync(temp, config.sqlitePath)
  syncFile(dirname(config.sqlitePath))
  const written = [config.sqlitePath]
  if (secrets) {
    for (const [file, value] of [[SESSION_SECRET_FILE, secrets.session], [CRYPTO_SECRET_FILE, secrets.crypto]] as const) {
      writeSecretFile(join(config.dataDir, file), `${value}\n`)
      written.push(join(config.dataDir, file))
    }
  }
  giveToDirOwner(config.dataDir, written)
  return { sqlitePath: config.sqlitePath, secretsRestored: secrets !== undefined, migrationsBehind: behind }
}

/** What makes a data dir "not empty" for a restore: a database (or its WAL) or secrets already there. */
function occupiedBy(config: Pick<Config, 'sqlitePath' | 'dataDir'>): string[] {
  const found: string[] = []
  for (const path of [config.sqlitePath, `${config.sqlitePath}-wal`, `${config.sqlitePath}-shm`, join(config.dataDir, SESSION_SECRET_FILE), join(config.dataDir, CRYPTO_SECRET_FILE)]) {
    if (existsSync(path)) found.push(basename(path))
  }
  return found
}

/** How many embedded migrations a database lacks; throws when it was written by a newer Tollgate, or is no Tollgate database. */
function migrationsBehind(path: string): number {
  const db = new Database(path, { readonly: true })
  try {
    let tags: string[]
    try {
      tags = db.query<{ tag: string }, []>('SELECT tag FROM __tollgate_migrations').all().map((r) => r.tag)
    } catch {
      throw new BackupError(`${path} is not a Tollgate database (it has no migration ledger)`)
    }
    const known = new Set(migrations.map((m) => m.tag))
    const unknown = tags.find((tag) => !known.has(tag))
    if (unknown) throw new BackupError(`${path} was written by a newer Tollgate (migration ${unknown} is unknown to this version): upgrade first`)
    return migrations.length - tags.length
  } finally {
    db.close()
  }
}

/** Scheduled backups' names: tollgate-YYYYMMDD-HHMMSS.db (UTC), sorted oldest first by name. */
export function scheduledBackupName(now = new Date()): string {
  const p = (n: number) => String(n).padStart(2, '0')
  return `tollgate-${now.getUTCFullYear()}${p(now.getUTCMonth() + 1)}${p(now.getUTCDate())}-${p(now.getUTCHours())}${p(now.getUTCMinutes())}${p(now.getUTCSeconds())}.db`
}

const SCHEDULED = /^tollgate-\d{8}-\d{6}\.db$/

/** The scheduled backups in `dir`, oldest first. */
export function listScheduledBackups(dir: string): string[] {
  try {
    return readdirSync(dir).filter((name) => SCHEDULED.test(name)).sort()
  } catch {
    return []
  }
}

/** Delete the oldest scheduled backups (and their secrets files) beyond `keep`; returns the names deleted. */
export function pruneBackups(dir: string, keep: number): string[] {
  const all = listScheduledBackups(dir)
  const gone = all.slice(0, Math.max(0, all.length - keep))
  for (const name of gone) {
    rmSync(join(dir, name), { force: true })
    rmSync(join(dir, `${name}.secrets`), { force: true })
  }
  return gone
}

function writeSecretFile(path: string, text: string): void {
  rmSync(path, { force: true }) // a file that exists keeps its mode: write a new one
  writeFileSync(path, text, { mode: 0o600 })
  chmodSync(path, 0o600)
}

function syncFile(path: string): void {
  let fd: number | undefined
  try {
    fd = openSync(path, 'r')
    fsyncSync(fd)
  } catch {
    // a directory cannot be fsync'ed on every platform: the rename is then only as durable as the file system makes it
  } finally {
    if (fd !== undefined) closeSync(fd)
  }
}

/**
 * Run as root on a data dir that belongs to someone else (the service user): hand the files this command wrote
 * to that owner, or the gateway could not open them.
 */
function giveToDirOwner(dir: string, paths: string[]): void {
  if (process.platform === 'win32' || process.getuid?.() !== 0) return
  const owner = statSync(dir)
  if (owner.uid === 0) return
  for (const path of paths) {
    try {
      chownSync(path, owner.uid, owner.gid)
    } catch {}
  }
}
