/**
 * Files private from the first byte (issue #28, item 12): a backup is 0600 while it is written, not only once
 * renamed; a data directory that already existed with open permissions, and the database files and secrets in
 * it, are tightened at start (and the start says so); new database files are born 0600 whatever the umask.
 */
import { Database } from 'bun:sqlite'
import { afterAll, afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { chmodSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openDatabase } from '../../src/db/sqlite/client'
import { snapshotDatabase } from '../../src/backup/backup'
import { serve } from './process'

const mode = (path: string) => (statSync(path).mode & 0o777).toString(8).padStart(4, '0')
const dirs: string[] = []
const newDir = (name: string) => {
  const dir = mkdtempSync(join(tmpdir(), `tollgate-private-${name}-`))
  dirs.push(dir)
  return dir
}
let umaskBefore: number

// the shell's usual umask: what the files must not depend on
beforeEach(() => (umaskBefore = process.umask(0o022)))
afterEach(() => void process.umask(umaskBefore))
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

describe('a backup', () => {
  test('its temporary file is 0600 from the moment it exists, the backup and its secrets too', () => {
    const dataDir = newDir('data')
    const db = openDatabase(join(dataDir, 'tollgate.db'))
    db.$client.exec('CREATE TABLE t (x TEXT); INSERT INTO t VALUES (randomblob(100000))')
    db.$client.close()
    const target = join(newDir('backups'), 'nested', 'backup.db')
    const seen: string[] = []
    const result = snapshotDatabase({ sqlitePath: join(dataDir, 'tollgate.db'), dataDir, sessionSecret: 's'.repeat(32), cryptoSecret: 'c'.repeat(32) }, target, {
      secrets: true,
      onTempFile: (temp) => seen.push(`${temp.endsWith('.tmp')} ${mode(temp)}`),
    })
    expect(seen).toEqual(['true 0600'])
    expect([mode(result.path), mode(result.secretsPath!), mode(join(target, '..'))]).toEqual(['0600', '0600', '0700'])
    expect(readdirSync(join(target, '..')).sort()).toEqual(['backup.db', 'backup.db.secrets'])
  })
})

describe('the database files', () => {
  test('a new SQLite file and its -wal and -shm are born 0600 in a directory that is 0755', () => {
    const dir = newDir('open')
    chmodSync(dir, 0o755)
    const db = openDatabase(join(dir, 'tollgate.db'))
    db.$client.exec('PRAGMA journal_mode = WAL; CREATE TABLE t (x); INSERT INTO t VALUES (1)')
    expect(['tollgate.db', 'tollgate.db-wal', 'tollgate.db-shm'].map((f) => `${f} ${mode(join(dir, f))}`)).toEqual(['tollgate.db 0600', 'tollgate.db-wal 0600', 'tollgate.db-shm 0600'])
    db.$client.close()
  })

  test('at start, a data dir and files that group or others could read are made private, and the log says so', async () => {
    const dataDir = newDir('existing')
    chmodSync(dataDir, 0o755)
    const seeded = new Database(join(dataDir, 'tollgate.db'), { create: true })
    seeded.exec('CREATE TABLE seeded (x)')
    seeded.close()
    chmodSync(join(dataDir, 'tollgate.db'), 0o644)
    writeFileSync(join(dataDir, 'session.secret'), `${'s'.repeat(43)}\n`, { mode: 0o644 })
    const server = await serve(dataDir, { ROOT_PASSWORD: 'root-password-1' })
    try {
      expect(mode(dataDir)).toBe('0700')
      for (const file of ['tollgate.db', 'tollgate.db-wal', 'tollgate.db-shm', 'session.secret', 'crypto.secret']) expect([file, mode(join(dataDir, file))]).toEqual([file, '0600'])
      const told = server.lines().filter((l) => String(l.msg).startsWith('made private'))
      expect(told.map((l) => String(l.path).replace(dataDir, 'DATA'))).toEqual(['DATA 0755 → 0700', 'DATA/session.secret 0644 → 0600', 'DATA/tollgate.db 0644 → 0600'])
    } finally {
      await server.stop()
    }
  }, 30_000)
})
