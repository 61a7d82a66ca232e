/**
 * Issue #17's lane: the same gateway on one SQLite node, one PostgreSQL node, and three PostgreSQL nodes sharing
 * Redis, all on this machine (so read the ratios, not the absolutes: PostgreSQL, Redis and every node share its
 * cores). Tiny chat passthrough (lane 1a's request, metered as in production):
 *   - added p50 / p99, one request at a time, against direct in the same rounds (the three nodes in turn);
 *   - throughput at 16 connections (the three nodes: three autocannons at once, 16 connections in all).
 *
 *   bun bench/nodes.ts [--gateway=build|source|<binary>] [--rounds=5] [--per-round=400] [--seconds=5]
 *
 * Target (the issue): one PostgreSQL node within 0.3 ms added p50 of SQLite.
 */
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { sequential, type Req } from './clients'
import { cpuMs, freePort, median, percentile, round, runChild, spawnChild, treeCpuMs } from './lib'
import { resolveGatewayCommand, ROOT, startFake, startGateway, tempDir, type Gateway } from './targets'
import { startPostgres } from '../tests/helpers/pg-server'
import { startRedis } from '../tests/helpers/redis-server'

const argv = Bun.argv.slice(2)
const option = (name: string) => argv.find((a) => a.startsWith(`--${name}=`))?.split('=').slice(1).join('=')
const ROUNDS = Number(option('rounds') ?? 5)
const PER_ROUND = Number(option('per-round') ?? 400)
const SECONDS = Number(option('seconds') ?? 5)
const MODEL = 'bench-d16'
const SECRETS = { SESSION_SECRET: 'bench-session-secret-0123456789abcdef0123', CRYPTO_SECRET: 'bench-crypto-secret-0123456789abcdef01234' }
const log = (line: string) => console.error(`[nodes] ${line}`)

const body = JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'Say hello in a few words.' }], max_tokens: 64 })
const json = { 'content-type': 'application/json' }
const reqOf = (url: string, key: string): Req => ({ url: `${url}/v1/chat/completions`, headers: { ...json, authorization: `Bearer ${key}` }, body, wire: 'chat' })

async function cannon(reqs: Req[], connections: number, seconds: number): Promise<{ rps: number; total: number; errors: number }> {
  const cli = join(ROOT, 'node_modules/autocannon/autocannon.js')
  const runtime = Bun.which('node') ?? 'bun'
  const per = Math.max(1, Math.round(connections / reqs.length))
  const runs = await Promise.all(
    reqs.map((req) =>
      runChild([runtime, cli, '-j', '-c', String(per), '-d', String(seconds), '-m', 'POST', ...Object.entries(req.headers).flatMap(([k, v]) => ['-H', `${k}=${v}`]), '-b', req.body, req.url], {
        timeoutMs: (seconds + 30) * 1000,
      }),
    ),
  )
  let rps = 0
  let total = 0
  let errors = 0
  for (const out of runs) {
    const r = JSON.parse(out.stdout) as { requests: { average: number; total: number }; errors: number; timeouts: number; non2xx: number }
    rps += r.requests.average
    total += r.requests.total
    errors += r.errors + r.timeouts + r.non2xx
  }
  return { rps, total, errors }
}

async function main() {
  const work = tempDir()
  const { cmd, how, note } = await resolveGatewayCommand(option('gateway') ?? 'build', work)
  log(`gateway: ${how}${note ? ` (${note})` : ''}`)
  const [fake, pg, redis] = await Promise.all([startFake(), startPostgres(), startRedis()])
  const models = { openai: [MODEL], chatOnly: [] }
  const stops: (() => Promise<unknown>)[] = [() => fake.child.stop(), () => pg.stop(), () => redis.stop()]
  try {
    const sqlite = await startGateway(cmd, how, fake, models)
    stops.unshift(sqlite.stop)
    const pgOne = await startGateway(cmd, how, fake, models, { DATABASE_URL: await pg.createDatabase(), ...SECRETS })
    stops.unshift(pgOne.stop)
    const clusterEnv = { DATABASE_URL: await pg.createDatabase(), REDIS_URL: redis.url, ...SECRETS }
    const first = await startGateway(cmd, how, fake, models, clusterEnv)
    stops.unshift(first.stop)
    const three: (Pick<Gateway, 'url' | 'key' | 'pid'>)[] = [first]
    for (let i = 2; i <= 3; i++) {
      const dataDir = join(work, `node${i}`)
      mkdirSync(dataDir, { recursive: true })
      const port = freePort()
      const child = await spawnChild([...cmd, '--port', String(port), '--data-dir', dataDir], {
        name: `node${i}`,
        env: { HOST: '127.0.0.1', ...clusterEnv },
        isReady: (line) => line.includes('listening on'),
      })
      stops.unshift(() => child.stop())
      three.push({ url: `http://127.0.0.1:${port}`, key: first.key, pid: child.pid })
    }

    const targets: Record<string, Req[]> = {
      direct: [{ url: `${fake.url}/v1/chat/completions`, headers: { ...json, authorization: 'Bearer sk-bench-upstream-0123456789' }, body, wire: 'chat' }],
      sqlite: [reqOf(sqlite.url, sqlite.key)],
      postgres: [reqOf(pgOne.url, pgOne.key)],
      'postgres ×3 + redis': three.map((n) => reqOf(n.url, n.key)),
    }
    const names = Object.keys(targets)
    for (const name of names) for (const req of targets[name]!) await sequential(req, 500) // warm-up (JIT, pools)
    const ms: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]))
    for (let r = 0; r < ROUNDS; r++) {
      for (const name of names.map((_, i) => names[(i + r) % names.length]!)) {
        const reqs = targets[name]!
        const res = await sequential(reqs[r % reqs.length]!, PER_ROUND)
        if (res.errors) throw new Error(`${name}: ${res.errors} errors (${res.firstError})`)
        ms[name]!.push(...res.ms)
      }
    }
    const direct = { p50: percentile(ms.direct!, 50), p99: percentile(ms.direct!, 99) }
    const rows: Record<string, unknown>[] = []
    for (const name of names.slice(1)) {
      const p50 = percentile(ms[name]!, 50)
      const p99 = percentile(ms[name]!, 99)
      rows.push({ target: name, 'p50 ms': round(p50), 'added p50': round(p50 - direct.p50), 'p99 ms': round(p99), 'added p99': round(p99 - direct.p99) })
    }
    // CPU per request under that load: the gateway processes', and PostgreSQL's and Redis's (all their processes)
    const gatewayPids: Record<string, number[]> = { sqlite: [sqlite.pid], postgres: [pgOne.pid], 'postgres ×3 + redis': three.map((n) => n.pid) }
    const serverCpu = () => treeCpuMs(pg.pid) + cpuMs(redis.pid)
    for (const name of names.slice(1)) {
      log(`throughput ${name}…`)
      const before = { gw: gatewayPids[name]!.reduce((a, p) => a + cpuMs(p), 0), servers: serverCpu() }
      const t = await cannon(targets[name]!, 16, SECONDS)
      const row = rows.find((r) => r.target === name)!
      row['rps @16'] = Math.round(t.rps)
      row['gateway CPU µs/req'] = Math.round(((gatewayPids[name]!.reduce((a, p) => a + cpuMs(p), 0) - before.gw) * 1000) / t.total)
      row['pg+redis CPU µs/req'] = Math.round(((serverCpu() - before.servers) * 1000) / t.total)
      if (t.errors) row.errors = t.errors
    }
    const base = rows[0]!
    for (const row of rows) {
      row['added p50 vs sqlite'] = round((row['added p50'] as number) - (base['added p50'] as number))
      row['rps ÷ sqlite'] = round((row['rps @16'] as number) / (base['rps @16'] as number), 2)
    }
    console.log(`direct p50 ${round(direct.p50)} ms, p99 ${round(direct.p99)} ms; ${ROUNDS} rounds × ${PER_ROUND}; median round p50s not shown`)
    console.table(rows)
    console.log(JSON.stringify({ direct, rows, rounds: ROUNDS, perRound: PER_ROUND, seconds: SECONDS, gateway: how, medianDirect: median(ms.direct!) }))
  } finally {
    for (const stop of stops) await stop().catch(() => {})
  }
}

await main()
