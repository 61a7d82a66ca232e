/**
 * Log query time at one million rows: fills a fresh database through the log repo's batch insert (the
 * writer's path), then times every query the log and dashboard routes run, median of 7 runs each.
 *
 *   bun bench/metering/log-queries.ts [--rows 1000000]
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { closeDatabase, openDatabase } from '../../src/db/sqlite/client'
import { migrate } from '../../src/db/sqlite/migrate'
import { LogType, type NewLog } from '../../src/db/repos'
import { createLogRepo } from '../../src/db/sqlite/repos/logs'

const i = Bun.argv.indexOf('--rows')
const ROWS = i > 0 ? Number(Bun.argv[i + 1]) : 1_000_000
const USERS = 1000
const MODELS = ['gpt-4o', 'gpt-4o-mini', 'claude-sonnet-4-5', 'claude-haiku-4-5', 'gemini-2.5-flash', 'deepseek-chat', 'o3', 'gpt-5']
const DAYS = 30

const dir = mkdtempSync(join(tmpdir(), 'tollgate-bench-logs-'))
const db = openDatabase(join(dir, 'tollgate.db'))
migrate(db)
const repo = createLogRepo(db)

// deterministic pseudo-random rows over 30 days: 1,000 users, 8 models, 20 channels, 5% errors
let seed = 42
const rand = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff)
const now = Math.floor(Date.now() / 1000)
const start = now - DAYS * 86_400
const t0 = performance.now()
for (let done = 0; done < ROWS; ) {
  const batch: NewLog[] = []
  for (let k = 0; k < 5000 && done < ROWS; k++, done++) {
    const user = Math.floor(rand() * USERS) + 1
    const error = rand() < 0.05
    batch.push({
      createdAt: start + Math.floor((done / ROWS) * DAYS * 86_400),
      type: error ? LogType.error : LogType.consume,
      userId: user,
      username: `user${user}`,
      tokenId: user * 3,
      tokenName: `key-${user % 7}`,
      modelName: MODELS[Math.floor(rand() * MODELS.length)]!,
      upstreamModel: 'm',
      channelId: Math.floor(rand() * 20) + 1,
      group: user % 10 === 0 ? 'vip' : 'default',
      promptTokens: Math.floor(rand() * 4000),
      completionTokens: Math.floor(rand() * 800),
      quota: error ? 0 : Math.floor(rand() * 5000),
      useTimeMs: Math.floor(rand() * 20_000),
      isStream: rand() < 0.7,
      statusCode: error ? 503 : 200,
      ip: '10.0.0.1',
      requestId: `req_${done.toString(36).padStart(10, '0')}`,
      other: '{"attempts":[{"channelId":3,"status":200}],"reserved":1234}',
    })
  }
  await repo.insertMany(batch)
}
db.$client.run('PRAGMA optimize')
const fillSeconds = (performance.now() - t0) / 1000
const fileMb = statSync(join(dir, 'tollgate.db')).size / 1048576
console.error(`inserted ${ROWS} rows in ${fillSeconds.toFixed(1)} s (${Math.round(ROWS / fillSeconds)} rows/s), file ${fileMb.toFixed(0)} MiB`)

function time(fn: () => unknown): number {
  const runs: number[] = []
  fn() // warm
  for (let k = 0; k < 7; k++) {
    const s = performance.now()
    fn()
    runs.push(performance.now() - s)
  }
  return runs.sort((a, b) => a - b)[3]!
}

const day = 86_400
const cases: [string, () => unknown][] = [
  ['GET /api/log/ (page 1, no filter, with total)', () => repo.list({}, 0, 10)],
  ['GET /api/log/ page 500', () => repo.list({}, 4990, 10)],
  ['… ?username (one user, via user id)', () => repo.list({ userId: 123 }, 0, 10)],
  ['… ?type=5 (errors)', () => repo.list({ type: LogType.error }, 0, 10)],
  ['… ?model_name', () => repo.list({ modelName: 'o3' }, 0, 10)],
  ['… ?model_name + last 24 h', () => repo.list({ modelName: 'o3', start: now - day, end: now }, 0, 10)],
  ['… ?token_name', () => repo.list({ tokenName: 'key-3' }, 0, 10)],
  ['… ?token_name + last 24 h', () => repo.list({ tokenName: 'key-3', start: now - day, end: now }, 0, 10)],
  ['… ?channel', () => repo.list({ channelId: 7 }, 0, 10)],
  ['… last 24 h', () => repo.list({ start: now - day, end: now }, 0, 10)],
  ['… ?request_id', () => repo.list({ requestId: 'req_0000000abc' }, 0, 10)],
  ['GET /api/log/self (one user, page 1)', () => repo.list({ userId: 321 }, 0, 10)],
  ['GET /api/log/self/stat (one user)', () => repo.stat({ userId: 321 }, now)],
  ['GET /api/log/stat (everyone, all time)', () => repo.stat({}, now)],
  ['GET /api/log/stat (everyone, last 24 h)', () => repo.stat({ start: now - day, end: now }, now)],
  ['GET /api/log/stat ?model_name (all time)', () => repo.stat({ modelName: 'o3' }, now)],
  ['GET /api/log/stat ?token_name (all time: rows, no hourly table)', () => repo.stat({ tokenName: 'key-3' }, now)],
  ['GET /api/data/ (everyone, 7 days, hourly by model)', () => repo.hourly({ start: now - 7 * day, end: now })],
  ['GET /api/data/self (one user, 7 days)', () => repo.hourly({ userId: 321, start: now - 7 * day, end: now })],
  ['retention: delete 5,000 oldest rows (the old batch)', () => repo.deleteBefore(now, 5000)],
  ['retention: delete 500 oldest rows (one step now)', () => repo.deleteBefore(now, 500)],
  ['retention: hand back 256 free pages (one vacuum step)', () => repo.compact(256)],
]
const results: { query: string; ms: number }[] = []
for (const [name, fn] of cases) {
  const ms = time(fn)
  results.push({ query: name, ms: Number(ms.toFixed(2)) })
  console.error(`${ms.toFixed(2).padStart(9)} ms  ${name}`)
}
console.log(JSON.stringify({ rows: ROWS, fillSeconds: Number(fillSeconds.toFixed(1)), fileMb: Math.round(fileMb), results }, null, 2))
closeDatabase(db)
rmSync(dir, { recursive: true, force: true })
