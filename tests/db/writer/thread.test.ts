import { Database } from 'bun:sqlite'
import { afterAll, afterEach, expect, spyOn, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openDatabase, type Db } from '../../../src/db/sqlite/client'
import { migrate } from '../../../src/db/sqlite/migrate'
import { createSqliteRepos as createRepos } from '../../../src/db/sqlite/repos'
import { LogType, type NewLog } from '../../../src/db/repos'
import { startWriterThread, type WriterThread } from '../../../src/db/sqlite/writer/thread'
import { createLogWriter } from '../../../src/metering/log-writer'

/** The metering writer thread: batches committed off the main thread, in order, none lost while the file is locked. */
const dir = mkdtempSync(join(tmpdir(), 'tollgate-writer-'))
let n = 0
const open: { db: Db; thread?: WriterThread }[] = []
afterEach(() => {
  for (const o of open.splice(0)) {
    o.thread?.stop()
    o.db.$client.close()
  }
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

function database(): { db: Db; path: string } {
  const path = join(dir, `t${++n}.db`)
  const db = openDatabase(path)
  migrate(db)
  open.push({ db })
  return { db, path }
}
const log = (i: number): NewLog => ({ type: LogType.consume, userId: 1, username: 'u', modelName: 'm', quota: i, requestId: `req_${i}`, createdAt: 1_750_000_000 })
const storedLogs = (db: Db) => db.$client.query<{ quota: number }, []>('SELECT quota FROM logs ORDER BY id').all().map((r) => r.quota)

test('batches are committed in the order they were posted, with their quota deltas; waitIdle returns once they are on disk', () => {
  const { db, path } = database()
  const user = db.$client.query<{ id: number }, []>("INSERT INTO users (username, password, quota) VALUES ('a', 'x', 1000) RETURNING id").get()!
  const thread = startWriterThread(path)
  open.push({ db, thread })
  thread.post([log(1), log(2)], { users: [[user.id, -30, 30, 2]], tokens: [], channels: [] })
  thread.post([log(3)], { users: [[user.id, -5, 5, 1]], tokens: [], channels: [] })
  expect(thread.waitIdle(10_000)).toBe(true)
  expect(storedLogs(db)).toEqual([1, 2, 3])
  expect(db.$client.query('SELECT quota, used_quota, request_count FROM users WHERE id = ?').get(user.id)).toEqual({ quota: 965, used_quota: 35, request_count: 3 })
})

test('a locked file delays batches without losing or reordering them', async () => {
  const { db, path } = database()
  const thread = startWriterThread(path, { busyTimeoutMs: 20 })
  open.push({ db, thread })
  const locker = new Database(path)
  const error = spyOn(console, 'error').mockImplementation(() => {})
  try {
    locker.exec('BEGIN IMMEDIATE')
    thread.post([log(1)])
    thread.post([log(2), log(3)])
    expect(thread.waitIdle(300)).toBe(false) // still locked: retried, not written
    expect(storedLogs(db)).toEqual([])
    locker.exec('COMMIT')
    expect(thread.waitIdle(10_000)).toBe(true)
    expect(storedLogs(db)).toEqual([1, 2, 3])
  } finally {
    locker.close()
    error.mockRestore()
  }
})

test('on the main thread (no writer thread), a batch that fails keeps both its log rows and its charges for the next one', async () => {
  const { db, path } = database()
  const repos = createRepos(db, { writerThread: false })
  const user = await repos.users.insert({ username: 'payer', password: 'x', quota: 1000 })
  const token = await repos.tokens.insert({ userId: user.id, name: 'k', keyHash: 'h'.repeat(64), keyHint: 'sk-…', remainQuota: 0, unlimitedQuota: true })
  await repos.tokens.findByKeyHash('h'.repeat(64)) // cached, as relay auth leaves it: the ledger reads no database
  const writer = createLogWriter(repos, { intervalMs: 60_000 })
  repos.quota.onDirty(writer.wake)
  expect((await repos.quota.reserve(user.id, token.id, false, 100)).ok).toBe(true)
  await repos.quota.settle({ userId: user.id, tokenId: token.id, tokenLimited: false, channelId: 0, reserved: 100, actual: 40, now: 1 })
  writer.push(log(40))
  // another connection holds the write lock, and this one does not wait for it: the batch's commit fails
  const other = new Database(path)
  other.exec('BEGIN IMMEDIATE')
  db.$client.exec('PRAGMA busy_timeout = 0')
  const error = spyOn(console, 'error').mockImplementation(() => {})
  const quota = () => db.$client.query<{ quota: number }, [number]>('SELECT quota FROM users WHERE id = ?').get(user.id)!.quota
  try {
    expect(await writer.flush()).toBe(0)
    other.exec('ROLLBACK')
    expect(quota()).toBe(1000) // rolled back with the rows
    expect(storedLogs(db)).toEqual([])
    expect(await writer.flush()).toBe(1)
    expect(quota()).toBe(960)
    expect(storedLogs(db)).toEqual([40])
  } finally {
    if (other.inTransaction) other.exec('ROLLBACK')
    other.close()
    error.mockRestore()
  }
})
