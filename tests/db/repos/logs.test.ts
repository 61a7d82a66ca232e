import { afterAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openDatabase } from '../../../src/db/sqlite/client'
import { migrate } from '../../../src/db/sqlite/migrate'
import { createLogRepo, type NewLog } from '../../../src/db/sqlite/repos/logs'

const dir = mkdtempSync(join(tmpdir(), 'tollgate-logs-'))
const db = openDatabase(join(dir, 't.db'))
migrate(db)
afterAll(() => {
  db.$client.close()
  rmSync(dir, { recursive: true, force: true })
})

test('a batch larger than one insert chunk is written whole, every field in place, in order', () => {
  const repo = createLogRepo(db)
  const rows: NewLog[] = Array.from({ length: 70 }, (_, i) => ({
    createdAt: 1_750_000_000 + i,
    type: 2,
    userId: 7,
    username: `u${i}`,
    modelName: 'gpt-4o',
    promptTokens: i,
    completionTokens: 2 * i,
    quota: 10 + i,
    isStream: i % 2 === 0,
    requestId: `req_${i}`,
    other: JSON.stringify({ i }),
  }))
  repo.insertMany(rows)
  const stored = repo.list({ userId: 7 }, 0, 100).items.reverse()
  expect(stored).toHaveLength(70)
  stored.forEach((row, i) =>
    expect(row).toMatchObject({ username: `u${i}`, promptTokens: i, completionTokens: 2 * i, quota: 10 + i, isStream: i % 2 === 0, requestId: `req_${i}`, other: JSON.stringify({ i }) }),
  )
  expect(repo.stat({ userId: 7 }, 1_750_000_100).quota).toBe(rows.reduce((sum, r) => sum + r.quota!, 0))
})
