import { afterAll, afterEach, expect, test } from 'bun:test'
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openDatabase, type Db } from '../../../src/db/sqlite/client'
import { migrate } from '../../../src/db/sqlite/migrate'
import { createSqliteRepos as createRepos, type RepoOptions, type SqliteRepos as Repos } from '../../../src/db/sqlite/repos'
import { LogType, type NewLog } from '../../../src/db/repos'

/** WAL checkpoints leave the event loop once the main thread's own commits write enough to need them. */
const dir = mkdtempSync(join(tmpdir(), 'tollgate-checkpoints-'))
let n = 0
const opened: { db: Db; repos: Repos }[] = []
afterEach(async () => {
  for (const o of opened.splice(0)) {
    await o.repos.close()
    o.db.$client.close()
  }
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

function setUp(options: RepoOptions) {
  const path = join(dir, `c${++n}.db`)
  const db = openDatabase(path)
  migrate(db)
  const repos = createRepos(db, options)
  opened.push({ db, repos })
  return { db, repos, path }
}

let seq = 0
const rows = (count: number): NewLog[] =>
  Array.from({ length: count }, () => ({ type: LogType.consume, userId: 1, username: 'u', modelName: 'm', quota: 1, requestId: `req_${++seq}`, content: 'x'.repeat(200) }))
const autocheckpoint = (db: Db) => db.$client.query<{ wal_autocheckpoint: number }, []>('PRAGMA wal_autocheckpoint').get()!.wal_autocheckpoint

test('a lightly written database keeps SQLite’s own checkpoints and starts no thread', async () => {
  const { db, repos } = setUp({ writerThread: false })
  for (let i = 0; i < 5; i++) await repos.commitMetering(rows(50))
  expect(repos.checkpointsHandedOver).toBe(false)
  expect(autocheckpoint(db)).toBe(1000)
})

test('past the threshold a thread checkpoints: the main connection stops, and committed pages still reach the database file', async () => {
  const { db, repos, path } = setUp({ writerThread: false, checkpoints: { threadAtBytes: 256 * 1024, everyMs: 20 } })
  let committed = 0
  for (let i = 0; i < 50 && !repos.checkpointsHandedOver; i++, committed += 100) await repos.commitMetering(rows(100))
  expect(repos.checkpointsHandedOver).toBe(true)
  expect(autocheckpoint(db)).toBe(0)

  // ~1.5 MB of rows more: with the main connection no longer checkpointing, only the thread can move them
  // out of the WAL into the database file
  const before = statSync(path).size
  for (let i = 0; i < 15; i++, committed += 500) await repos.commitMetering(rows(500))
  const grown = async () => {
    for (let waited = 0; waited < 3000; waited += 25) {
      if (statSync(path).size >= before + 1024 * 1024) return true
      await Bun.sleep(25)
    }
    return false
  }
  expect(await grown()).toBe(true)
  expect(countAll(db)).toBe(committed)
})

test('without the thread, the same commits leave the database file as it was (what the test above relies on)', async () => {
  const { db, repos, path } = setUp({ writerThread: false, checkpoints: { threadAtBytes: Number.MAX_SAFE_INTEGER } })
  db.$client.exec('PRAGMA wal_autocheckpoint = 0')
  await repos.commitMetering(rows(100))
  const before = statSync(path).size
  for (let i = 0; i < 15; i++) await repos.commitMetering(rows(500))
  await Bun.sleep(200)
  expect(statSync(path).size).toBe(before)
})

test('closing ends the thread and the main connection checkpoints again', async () => {
  const { db, repos } = setUp({ writerThread: false, checkpoints: { threadAtBytes: 64 * 1024 } })
  for (let i = 0; i < 50 && !repos.checkpointsHandedOver; i++) await repos.commitMetering(rows(100))
  expect(repos.checkpointsHandedOver).toBe(true)
  await repos.close()
  expect(repos.checkpointsHandedOver).toBe(false)
  expect(autocheckpoint(db)).toBe(1000)
})

test('with the writer thread, commits and their checkpoints are already off the event loop: no second thread', async () => {
  const { repos } = setUp({ writerThread: true, checkpoints: { threadAtBytes: 1 } })
  for (let i = 0; i < 5; i++) await repos.commitMetering(rows(100))
  await repos.drainMetering()
  expect(repos.checkpointsHandedOver).toBe(false)
})

function countAll(db: Db): number {
  return db.$client.query<{ n: number }, []>('SELECT count(*) AS n FROM logs').get()!.n
}

test('a thread that cannot start leaves SQLite checkpointing on the main thread, and no batch is written twice', async () => {
  const failing = () => {
    throw new Error('no worker here')
  }
  const { db, repos } = setUp({ writerThread: false, checkpoints: { threadAtBytes: 64 * 1024, startThread: failing } })
  const errors: string[] = []
  const original = console.error
  console.error = (message: string) => void errors.push(message)
  try {
    for (let i = 0; i < 10; i++) await repos.commitMetering(rows(100))
  } finally {
    console.error = original
  }
  expect(countAll(db)).toBe(1000)
  expect(repos.checkpointsHandedOver).toBe(false)
  expect(autocheckpoint(db)).toBe(1000)
  expect(errors).toEqual(['checkpoint thread did not start (no worker here); SQLite checkpoints on the main thread'])
})
