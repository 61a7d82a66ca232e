/**
 * What the coordination seam costs per request: acquire + release of a token and a user scope (RPM, TPM and
 * concurrency all limited, none ever reached), local (in process) vs Redis on loopback (a throwaway
 * redis-server). One at a time for the latency (p50/p99 of the pair, and of the acquire alone), then N at once
 * for the throughput. Scopes without limits skip both backends entirely, so that case is shown too. Today's
 * synchronous limiter (`metering/rate-limit.ts`) runs the same loop as the baseline the local backend replaces.
 *
 *   bun bench/coord.ts [--requests 20000] [--concurrency 64]
 */
import { RedisClient } from 'bun'
import { loadavg } from 'node:os'
import { createLocalCoordination } from '../src/coord/local'
import { createRedisCoordination } from '../src/coord/redis'
import type { Coordination, ScopeRequest } from '../src/coord/types'
import { createRateLimiter } from '../src/metering/rate-limit'
import { startRedis } from '../tests/helpers/redis-server'
import { percentile, round } from './lib'

const arg = (name: string, fallback: number) => {
  const i = Bun.argv.indexOf(`--${name}`)
  return i > 0 ? Number(Bun.argv[i + 1]) : fallback
}
const REQUESTS = arg('requests', 20_000)
const CONCURRENCY = arg('concurrency', 64)

const HIGH = { rpm: 1e9, tpm: 1e12, concurrency: 1e6 }
const scopes = (i: number): ScopeRequest[] => [
  { key: `t:${i % 100}`, label: 'API key', limits: HIGH },
  { key: `u:${i % 10}`, label: 'user', limits: HIGH },
]
const UNLIMITED: ScopeRequest[] = [{ key: 't:0', label: 'API key', limits: { rpm: 0, tpm: 0, concurrency: 0 } }]

async function pair(coord: Pick<Coordination, 'acquire'>, request: ScopeRequest[]): Promise<number> {
  const r = await coord.acquire(request, 1000)
  if (!r.ok) throw new Error(`refused: ${r.kind}`)
  const at = performance.now()
  await r.permit.release(500)
  return at
}

/** one at a time: µs per acquire+release and per acquire */
async function latency(coord: Pick<Coordination, 'acquire'>, limited: boolean) {
  for (let i = 0; i < 2000; i++) await pair(coord, limited ? scopes(i) : UNLIMITED) // warm-up
  const both: number[] = []
  const acquire: number[] = []
  for (let i = 0; i < REQUESTS; i++) {
    const start = performance.now()
    const acquired = await pair(coord, limited ? scopes(i) : UNLIMITED)
    const end = performance.now()
    both.push((end - start) * 1000)
    acquire.push((acquired - start) * 1000)
  }
  return { p50: percentile(both, 50), p99: percentile(both, 99), acquireP50: percentile(acquire, 50) }
}

/** CONCURRENCY loops at once: pairs per second */
async function throughput(coord: Pick<Coordination, 'acquire'>, limited: boolean): Promise<number> {
  let next = 0
  const start = performance.now()
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < REQUESTS) {
        const i = next++
        await pair(coord, limited ? scopes(i) : UNLIMITED)
      }
    }),
  )
  return REQUESTS / ((performance.now() - start) / 1000)
}

async function measure(name: string, coord: Pick<Coordination, 'acquire'>, limited: boolean) {
  const l = await latency(coord, limited)
  const rps = await throughput(coord, limited)
  return { backend: name, scopes: limited ? 'token + user, limited' : 'no limits', pairsPerSecond: Math.round(rps), p50us: round(l.p50, 1), p99us: round(l.p99, 1), acquireP50us: round(l.acquireP50, 1) }
}

/** today's limiter behind the same async face, so the loop around it is the same */
function today(): Pick<Coordination, 'acquire'> {
  const limiter = createRateLimiter()
  return {
    async acquire(requests, estimate) {
      const give = limiter.acquire(requests, estimate)
      return { ok: true, permit: { release: async (used: number) => give(used) } }
    },
  }
}

const server = await startRedis()
const rows = []
let serverUs = ''
try {
  const local = createLocalCoordination()
  const redis = await createRedisCoordination({ url: server.url, prefix: 'bench:' })
  for (const limited of [true, false]) {
    rows.push(await measure('metering/rate-limit.ts (today, sync)', today(), limited))
    rows.push(await measure('local', local, limited))
    rows.push(await measure('redis (loopback)', redis, limited))
  }
  // Redis's own time per script (acquire and release alike), apart from the client and the loopback
  const raw = new RedisClient(server.url)
  const stats = (await raw.send('INFO', ['commandstats'])) as string
  serverUs = stats.match(/cmdstat_evalsha:.*usec_per_call=([\d.]+)/)?.[1] ?? '?'
  raw.close()
  await local.close()
  await redis.close()
} finally {
  await server.stop()
}

console.log(`\nacquire + release, ${REQUESTS} pairs; throughput with ${CONCURRENCY} at once (${navigator.hardwareConcurrency} CPUs, Bun ${Bun.version})\n`)
console.log('| backend | scopes | pairs/s | p50 µs | p99 µs | acquire p50 µs |')
console.log('|---|---|---:|---:|---:|---:|')
for (const r of rows) console.log(`| ${r.backend} | ${r.scopes} | ${r.pairsPerSecond} | ${r.p50us} | ${r.p99us} | ${r.acquireP50us} |`)
console.log(`\nredis-server's own time per script call (INFO commandstats): ${serverUs} µs; load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`)
console.log(`\n${JSON.stringify(rows)}`)
