/**
 * What a relay request's quota moves cost per dialect: one reservation and its settlement (`repos.quota.reserve`
 * + `settle`, with a limited API key, so both balances move), on SQLite (the in-memory ledger, written behind)
 * and on PostgreSQL (one call of `tollgate_reserve` and one of `tollgate_settle`, each one round trip, a throwaway
 * server on loopback, fsync off as in the tests). One at a time on a pool of one connection for the latency of
 * the pair (p50/p99/mean µs), then N pairs at once on the default pool of 10 for the throughput.
 *
 *   bun bench/quota-roundtrip.ts [--pairs 5000] [--concurrency 64]
 */
import { SQL } from 'bun'
import { loadavg, tmpdir } from 'node:os'
import { mkdtempSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { openRepos } from '../src/db'
import type { Repos } from '../src/db/repos'
import { startPostgres } from '../tests/helpers/pg-server'
import { percentile, round } from './lib'

const arg = (name: string, fallback: number) => {
  const i = Bun.argv.indexOf(`--${name}`)
  return i > 0 ? Number(Bun.argv[i + 1]) : fallback
}
const PAIRS = arg('pairs', 5000)
const CONCURRENCY = arg('concurrency', 64)

async function account(repos: Repos) {
  const user = await repos.users.insert({ username: `bench${Math.random()}`, password: 'x', quota: 1e15 })
  const token = await repos.tokens.insert({ userId: user.id, keyHash: `${Math.random()}`.padEnd(64, '0'), keyHint: 'sk', remainQuota: 1e15, unlimitedQuota: false })
  await repos.users.findById(user.id) // cached, as relay auth leaves them
  await repos.tokens.findByKeyHash(token.keyHash)
  return { userId: user.id, tokenId: token.id }
}

async function pair(repos: Repos, a: { userId: number; tokenId: number }): Promise<void> {
  const r = await repos.quota.reserve(a.userId, a.tokenId, true, 1000)
  if (!r.ok) throw new Error('refused')
  await repos.quota.settle({ userId: a.userId, tokenId: a.tokenId, tokenLimited: true, channelId: 0, reserved: 1000, actual: 600, now: 1_800_000_000, hold: r.hold })
}

async function sequential(repos: Repos) {
  const a = await account(repos)
  for (let i = 0; i < Math.min(500, PAIRS); i++) await pair(repos, a) // warm: JIT, prepared statements, plpgsql plans
  const times: number[] = []
  for (let i = 0; i < PAIRS; i++) {
    const t = performance.now()
    await pair(repos, a)
    times.push((performance.now() - t) * 1000)
    // SQLite's ledger writes behind: a batch commit as the log writer would make, every 250 pairs
    if (repos.dialect === 'sqlite' && i % 250 === 249) await repos.commitMetering([])
  }
  times.sort((x, y) => x - y)
  return { p50: round(percentile(times, 50), 1), p99: round(percentile(times, 99), 1), mean: round(times.reduce((s, x) => s + x, 0) / times.length, 1) }
}

/** The floor: one `SELECT 1` on one connection, one at a time. */
async function roundTrip(url: string) {
  const sql = new SQL({ url, max: 1 })
  for (let i = 0; i < 500; i++) await sql`SELECT 1`
  const times: number[] = []
  for (let i = 0; i < PAIRS; i++) {
    const t = performance.now()
    await sql`SELECT 1`
    times.push((performance.now() - t) * 1000)
  }
  await sql.close()
  times.sort((x, y) => x - y)
  return { p50: round(percentile(times, 50), 1), p99: round(percentile(times, 99), 1) }
}

async function concurrent(repos: Repos) {
  // one account per worker: the same user row for all would measure PostgreSQL's row lock, not the round trips
  const accounts = await Promise.all(Array.from({ length: CONCURRENCY }, () => account(repos)))
  let next = 0
  const started = performance.now()
  await Promise.all(
    accounts.map(async (a) => {
      while (next++ < PAIRS) await pair(repos, a)
    }),
  )
  return round(PAIRS / ((performance.now() - started) / 1000), 0)
}

const dir = mkdtempSync(join(tmpdir(), 'tollgate-quota-bench-'))
const server = await startPostgres('bench')
try {
  const sqlite = await openRepos({ database: { kind: 'sqlite', path: join(dir, 'bench.db') }, writerThread: false })
  const pgOne = await openRepos({ database: { kind: 'postgres', url: server.url, poolSize: 1, statementTimeoutMs: 30_000, holdTtlSeconds: 45 }, writerThread: false })
  const pgPool = await openRepos({ database: { kind: 'postgres', url: server.url, poolSize: 10, statementTimeoutMs: 30_000, holdTtlSeconds: 45 }, writerThread: false })
  console.log(`reserve + settle, limited API key; ${PAIRS} pairs; load ${loadavg().map((l) => l.toFixed(1)).join(' ')}`)
  for (const [name, repos] of [['sqlite', sqlite], ['postgres (1 connection)', pgOne]] as const) {
    console.log(`${name.padEnd(24)} one at a time: µs per pair`, await sequential(repos))
  }
  console.log(`${'postgres SELECT 1'.padEnd(24)} one at a time: µs per round trip (the floor: a pair is two)`, await roundTrip(server.url))
  console.log(`${'sqlite'.padEnd(24)} ${CONCURRENCY} at once: pairs/s`, await concurrent(sqlite))
  console.log(`${'postgres (pool of 10)'.padEnd(24)} ${CONCURRENCY} at once: pairs/s`, await concurrent(pgPool))
  for (const repos of [sqlite, pgOne, pgPool]) await repos.close()
} finally {
  await server.stop()
  rmSync(dir, { recursive: true, force: true })
}
