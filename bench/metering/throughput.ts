/**
 * Settled requests per second through the whole relay (auth, price, reserve, upstream, settle, log) with
 * usage logging on and off, and their ratio. Each piece is its own process: the bench fake upstream, the
 * gateway (bench/metering/gateway.ts), and autocannon as the load.
 *
 *   bun bench/metering/throughput.ts [--seconds 15] [--connections 32] [--rounds 2]
 */
import { join } from 'node:path'
import { runChild, spawnChild } from '../lib'

const ROOT = join(import.meta.dir, '../..')
const arg = (name: string, fallback: number) => {
  const i = Bun.argv.indexOf(`--${name}`)
  return i > 0 ? Number(Bun.argv[i + 1]) : fallback
}
const SECONDS = arg('seconds', 15)
const CONNECTIONS = arg('connections', 32)
const ROUNDS = arg('rounds', 2)

interface Run { rps: number; total: number; non2xx: number; errors: number; logs: number; requests: number; p50: number; p99: number }

async function run(upstream: string, logging: boolean): Promise<Run> {
  const gateway = await spawnChild(['bun', join(ROOT, 'bench/metering/gateway.ts')], {
    name: 'gateway',
    env: { LOG_CONSUME: String(logging), UPSTREAM: upstream },
    isReady: (line) => line.startsWith('{"url"'),
  })
  const { url, key, model } = JSON.parse(gateway.readyLine) as { url: string; key: string; model: string }
  const body = JSON.stringify({ model, max_tokens: 64, messages: [{ role: 'user', content: 'Say hello in one short sentence.' }] })
  const cli = join(ROOT, 'node_modules/autocannon/autocannon.js')
  const runtime = Bun.which('node') ?? 'bun'
  const common = ['-j', '-m', 'POST', '-H', 'content-type=application/json', '-H', `authorization=Bearer ${key}`, '-b', body, `${url}/v1/chat/completions`]
  await runChild([runtime, cli, '-c', '8', '-d', '2', ...common], { timeoutMs: 60_000 }) // warm-up
  const out = await runChild([runtime, cli, '-c', String(CONNECTIONS), '-d', String(SECONDS), ...common], { timeoutMs: (SECONDS + 60) * 1000 })
  if (out.code !== 0) throw new Error(`autocannon: ${out.stderr.slice(-300)}`)
  const r = JSON.parse(out.stdout) as { requests: { average: number; total: number }; latency: { p50: number; p99: number }; errors: number; non2xx: number; '2xx': number }
  await gateway.stop()
  const tail = gateway.output().trim().split('\n').reverse().find((l) => l.startsWith('{"logs"'))
  const end = JSON.parse(tail ?? '{"logs":-1,"requests":-1}') as { logs: number; requests: number }
  return { rps: r['2xx'] / SECONDS, total: r['2xx'], non2xx: r.non2xx, errors: r.errors, logs: end.logs, requests: end.requests, p50: r.latency.p50, p99: r.latency.p99 }
}

const upstream = await spawnChild(['bun', join(ROOT, 'bench/fake-upstream.ts'), '--deltas', '8'], { name: 'upstream', isReady: (l) => l.startsWith('{"port"') })
const upstreamUrl = `http://127.0.0.1:${(JSON.parse(upstream.readyLine) as { port: number }).port}`
const results: { on: Run[]; off: Run[] } = { on: [], off: [] }
for (let round = 0; round < ROUNDS; round++) {
  // alternate the order so neither mode always runs on a warmer machine
  for (const logging of round % 2 ? [false, true] : [true, false]) {
    const r = await run(upstreamUrl, logging)
    results[logging ? 'on' : 'off'].push(r)
    console.error(`round ${round + 1} logging ${logging ? 'on ' : 'off'}: ${r.rps.toFixed(0)} settled req/s (${r.total} ok, ${r.non2xx} non-2xx, ${r.errors} errors), p50 ${r.p50} ms, p99 ${r.p99} ms; log rows ${r.logs}, user request_count ${r.requests}`)
  }
}
await upstream.stop()
const mean = (runs: Run[]) => runs.reduce((s, r) => s + r.rps, 0) / runs.length
const on = mean(results.on)
const off = mean(results.off)
console.log(JSON.stringify({ seconds: SECONDS, connections: CONNECTIONS, rounds: ROUNDS, logging_on_rps: Math.round(on), logging_off_rps: Math.round(off), ratio: Number((on / off).toFixed(3)), runs: results }, null, 2))
process.exit(0)
