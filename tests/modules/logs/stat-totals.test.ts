import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { closeDatabase, openDatabase, type Db } from '../../../src/db/sqlite/client'
import { migrate } from '../../../src/db/sqlite/migrate'
import { LogType, type LogFilter, type LogRepo, type NewLog } from '../../../src/db/repos'
import { createLogRepo } from '../../../src/db/sqlite/repos/logs'

/**
 * The stat's `count` and `tokens` (the console's filter totals) are summed like its quota: whole hours from
 * the hourly tables where the filter allows, partial hours and other filters from the rows. Either way they
 * must equal what the matching consume rows add up to, before and after retention.
 */
let dir: string
let db: Db
let repo: LogRepo
const rows: NewLog[] = []
const T0 = 1_790_000_000 - (1_790_000_000 % 3600) + 777 // not hour-aligned
const SPAN = 2 * 86_400

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tollgate-stat-totals-'))
  db = openDatabase(join(dir, 'db.sqlite'))
  migrate(db)
  repo = createLogRepo(db)
  let seed = 11
  const rand = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff)
  for (let i = 0; i < 3000; i++) {
    const user = 1 + Math.floor(rand() * 4)
    rows.push({
      createdAt: T0 + Math.floor(rand() * SPAN),
      type: rand() < 0.15 ? LogType.error : LogType.consume,
      userId: user,
      username: `u${user}`,
      modelName: ['a', 'b'][Math.floor(rand() * 2)]!,
      tokenName: `k${user % 2}`,
      channelId: 1 + Math.floor(rand() * 2),
      quota: Math.floor(rand() * 500),
      promptTokens: Math.floor(rand() * 300),
      completionTokens: Math.floor(rand() * 100),
    })
  }
  for (let i = 0; i < rows.length; i += 500) await repo.insertMany(rows.slice(i, i + 500))
})
afterAll(() => {
  closeDatabase(db)
  rmSync(dir, { recursive: true, force: true })
})

function truth(f: LogFilter, minCreated = 0) {
  const hit = rows
    .filter((r) => r.type === LogType.consume && r.createdAt! >= minCreated)
    .filter((r) => (f.userId === undefined || r.userId === f.userId) && (f.modelName === undefined || r.modelName === f.modelName))
    .filter((r) => (f.tokenName === undefined || r.tokenName === f.tokenName) && (f.channelId === undefined || r.channelId === f.channelId))
    .filter((r) => (f.start === undefined || r.createdAt! >= f.start) && (f.end === undefined || r.createdAt! <= f.end))
  return {
    quota: hit.reduce((s, r) => s + r.quota!, 0),
    count: hit.length,
    tokens: hit.reduce((s, r) => s + r.promptTokens! + r.completionTokens!, 0),
  }
}

function filters(): LogFilter[] {
  const base: LogFilter[] = [{}, { userId: 2 }, { modelName: 'a' }, { userId: 3, modelName: 'b' }, { tokenName: 'k0' }, { channelId: 1 }]
  const ranges = [{}, { start: T0 + 4000 }, { end: T0 + 86_400 }, { start: T0 + 10, end: T0 + 900 }, { start: T0 + 2000, end: T0 + SPAN - 3000 }, { start: T0 + SPAN + 5 }]
  return base.flatMap((f) => ranges.map((r) => ({ ...f, ...r })))
}

const totals = async (f: LogFilter) => {
  const { quota, count, tokens } = await repo.stat(f, T0)
  return { quota, count, tokens }
}

test('count and tokens equal the matching consume rows, for every filter (hourly tables or rows)', async () => {
  for (const f of filters()) expect({ f, ...(await totals(f)) }).toEqual({ f, ...truth(f) })
  expect((await totals({})).count).toBeGreaterThan(2000) // the data is not trivially empty
})

test('after retention they still match the rows left', async () => {
  const cut = T0 + 86_400 + 1234
  while ((await repo.deleteBefore(cut, 250)) === 250);
  for (const f of filters()) expect({ f, ...(await totals(f)) }).toEqual({ f, ...truth(f, cut) })
})
