/**
 * What the plan lookup costs a request of a user who holds no plan: `fundingFor` (src/subscriptions/funding.ts), the
 * question every metered request asks before its reservation, on SQLite and on PostgreSQL (a throwaway server on
 * loopback, one connection), one at a time: p50/p99/mean µs per lookup.
 *
 *   bun bench/plan-lookup.ts [--lookups 5000]
 */
import { loadavg, tmpdir } from 'node:os'
import { mkdtempSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { openRepos } from '../src/db'
import type { Repos } from '../src/db/repos'
import { fundingFor } from '../src/subscriptions/funding'
import { startPostgres } from '../tests/helpers/pg-server'
import { percentile, round } from './lib'

const i = Bun.argv.indexOf('--lookups')
const LOOKUPS = i > 0 ? Number(Bun.argv[i + 1]) : 5000

async function lookups(repos: Repos) {
  const user = await repos.users.insert({ username: `bench${Math.random()}`, password: 'x', quota: 1e9 })
  const deps = { quota: repos.quota, subscriptions: repos.subscriptions, now: () => Math.floor(Date.now() / 1000) }
  const call = { userId: user.id, tokenId: 1, tokenLimited: false, model: 'gpt-4o', group: 'default' }
  for (let n = 0; n < 500; n++) await fundingFor(deps, call) // warm: JIT, prepared statements
  const times: number[] = []
  for (let n = 0; n < LOOKUPS; n++) {
    const t = performance.now()
    const funding = await fundingFor(deps, call)
    times.push((performance.now() - t) * 1000)
    if (funding.preference !== 'wallet_only') throw new Error('this user holds no plan')
  }
  times.sort((x, y) => x - y)
  return { p50: round(percentile(times, 50), 1), p99: round(percentile(times, 99), 1), mean: round(times.reduce((s, x) => s + x, 0) / times.length, 1) }
}

const dir = mkdtempSync(join(tmpdir(), 'tollgate-plan-bench-'))
const server = await startPostgres('bench')
try {
  const sqlite = await openRepos({ database: { kind: 'sqlite', path: join(dir, 'bench.db') }, writerThread: false })
  const pg = await openRepos({ database: { kind: 'postgres', url: server.url, poolSize: 1, statementTimeoutMs: 30_000, holdTtlSeconds: 45 }, writerThread: false })
  console.log(`plan lookup of a user without a plan; ${LOOKUPS} lookups; load ${loadavg().map((l) => l.toFixed(1)).join(' ')}`)
  for (const [name, repos] of [['sqlite', sqlite], ['postgres (1 connection)', pg]] as const) console.log(`${name.padEnd(24)} µs per lookup`, await lookups(repos))
  for (const repos of [sqlite, pg]) await repos.close()
} finally {
  await server.stop()
  rmSync(dir, { recursive: true, force: true })
}
