// Files private from the first byte: the data directory holds the password hashes, the sealed channel keys and
// the two secrets; nothing in it is for the group or others.
import { chmodSync, existsSync, statSync } from 'node:fs'
import { join } from 'node:path'

/** Mode bits for the group and others. */
const OPEN_BITS = 0o077

/**
 * Every file this process creates from now on is its owner's alone (0600, directories 0700), whatever the
 * shell's umask was: databases, their -wal/-shm files, secrets, backups and their temporary files, reports.
 * Node's and Bun's `process.umask` sets the process-wide mask that open(2) and mkdir(2) apply.
 */
export function privateUmask(): void {
  process.umask(0o077)
}

/**
 * A data dir (or database files) that already existed with group/other bits set keeps them until tightened:
 * the directory to 0700, the files to 0600. Answers what was changed ("path 0755 → 0700"), for the log.
 */
export function tightenDataFiles(dataDir: string, sqlitePath: string | undefined, secretFiles: readonly string[]): string[] {
  const changed: string[] = []
  const tighten = (path: string, mode: number) => {
    if (!existsSync(path)) return
    const current = statSync(path).mode & 0o777
    if ((current & OPEN_BITS) === 0) return
    chmodSync(path, mode)
    changed.push(`${path} ${current.toString(8).padStart(4, '0')} → ${mode.toString(8).padStart(4, '0')}`)
  }
  tighten(dataDir, 0o700)
  for (const name of secretFiles) tighten(join(dataDir, name), 0o600)
  if (sqlitePath) {
    for (const path of [sqlitePath, `${sqlitePath}-wal`, `${sqlitePath}-shm`, `${sqlitePath}-journal`]) tighten(path, 0o600)
  }
  return changed
}
