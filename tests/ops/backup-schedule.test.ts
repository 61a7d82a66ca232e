import { afterAll, expect, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { listScheduledBackups, pruneBackups, scheduledBackupName } from '../../src/backup/backup'
import { startBackupSchedule } from '../../src/backup/schedule'
import { startTestApp } from '../helpers/test-app'
import { ENTRY, serve } from './process'
import { until } from '../helpers/wait'

const dirs: string[] = []
const temp = () => {
  const dir = mkdtempSync(join(tmpdir(), 'tollgate-schedule-'))
  dirs.push(dir)
  return dir
}
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

test('names sort by time; pruning keeps the newest BACKUP_KEEP with their secrets files, and nothing else is touched', () => {
  expect(scheduledBackupName(new Date(Date.UTC(2026, 0, 2, 3, 4, 5)))).toBe('tollgate-20260102-030405.db')
  const dir = temp()
  const names = ['tollgate-20260101-000000.db', 'tollgate-20260102-000000.db', 'tollgate-20260103-000000.db', 'tollgate-20260104-000000.db']
  for (const name of names) {
    writeFileSync(join(dir, name), 'x')
    writeFileSync(join(dir, `${name}.secrets`), 'x')
  }
  writeFileSync(join(dir, 'my-own.db'), 'x')
  expect(pruneBackups(dir, 2)).toEqual(names.slice(0, 2))
  expect(readdirSync(dir).sort()).toEqual(['my-own.db', ...names.slice(2).flatMap((n) => [n, `${n}.secrets`])].sort())
})

test('a scheduled run writes a checked backup with its secrets through the backup command, then prunes', async () => {
  const dataDir = temp()
  const app = await startTestApp({}, undefined, dataDir)
  await app.close()
  const backupDir = join(temp(), 'backups')
  mkdirSync(backupDir)
  // two older ones already there
  writeFileSync(join(backupDir, 'tollgate-20200101-000000.db'), 'old')
  writeFileSync(join(backupDir, 'tollgate-20200102-000000.db'), 'old')
  const ops: { backup?: { lastSuccessAt: number; failures: number } } = {}
  const schedule = startBackupSchedule({ backupDir, backupEveryHours: 24, backupKeep: 2, dataDir }, ops, ['bun', ENTRY])
  try {
    await schedule.runNow!()
  } finally {
    schedule.stop()
  }
  expect(ops.backup!.failures).toBe(0)
  expect(ops.backup!.lastSuccessAt).toBeGreaterThan(Date.now() - 60_000)
  const kept = listScheduledBackups(backupDir)
  expect(kept).toHaveLength(2)
  expect(kept[0]).toBe('tollgate-20200102-000000.db')
  const fresh = join(backupDir, kept[1]!)
  expect(existsSync(`${fresh}.secrets`)).toBe(true)
  const db = new Database(fresh, { readonly: true })
  expect(db.query('PRAGMA integrity_check').get()).toEqual({ integrity_check: 'ok' })
  db.close()
}, 30_000)

test('the server runs the schedule from BACKUP_DIR and reports it in its metrics', async () => {
  const dataDir = temp()
  const backupDir = join(temp(), 'b')
  const server = await serve(dataDir, { ROOT_PASSWORD: 'root-password-123', BACKUP_DIR: backupDir, BACKUP_EVERY_HOURS: '1', BACKUP_KEEP: '3' })
  try {
    const announced = () => server.lines().some((l) => l.msg.startsWith(`scheduled backups: every 1 h into ${backupDir}, keeping 3`))
    await until(announced, { what: 'the schedule announced' })
    const metrics = await (await fetch(`${server.url}/metrics`)).text()
    expect(metrics).toContain('tollgate_backup_failures_total 0')
  } finally {
    expect(await server.stop()).toBe(0)
  }
}, 30_000)
