/**
 * Two gateway binaries on one fake upstream, both running at once, loaded in turn (round by round, the order
 * swapped each round): requests per second (autocannon) and each gateway's CPU per request (utime + stime of
 * its process, all threads, from /proc). Separate `bench/run.ts` runs of two builds on a shared machine drift
 * by ±30 % in lane 3; pairing rounds of the same minutes gives the ratio a change makes.
 *
 *   bun bench/ab-binaries.ts <binary A> <binary B>   (env C=connections 16, S=seconds per round 5, R=rounds 6,
 *     BYTES=N: opencode's tool follow-up turn grown to N bytes, an agent body, instead of a tiny one)
 *
 * Prints each round on stderr, then one JSON line: medians per binary and the medians of the per-round B/A ratios.
 */
import { join } from 'node:path'
import { cpuMs, median, runChild } from './lib'
import { ROOT, startFake, startGateway } from './targets'
import { opencodeBody } from '../tests/helpers/agent-body'

const [a, b] = Bun.argv.slice(2)
if (!a || !b) throw new Error('usage: bun bench/ab-binaries.ts <binary A> <binary B>')
const conns = Number(process.env.C ?? 16)
const seconds = Number(process.env.S ?? 5)
const rounds = Number(process.env.R ?? 6)

const fake = await startFake()
const models = { openai: ['bench-d16'], chatOnly: ['chatonly-d16'] }
const gateways = { A: await startGateway([a], a, fake, models), B: await startGateway([b], b, fake, models) }
type Side = keyof typeof gateways

const bytes = Number(process.env.BYTES ?? 0)
const body = JSON.stringify(bytes > 0 ? { ...opencodeBody(bytes, 'bench-d16'), max_tokens: 16 } : { model: 'bench-d16', messages: [{ role: 'user', content: 'hi' }], max_tokens: 16 })
async function load(side: Side, connections: number, durationS: number) {
  const g = gateways[side]
  const cpuBefore = cpuMs(g.pid)
  const cli = join(ROOT, 'node_modules/autocannon/autocannon.js')
  const args = ['-j', '-c', String(connections), '-d', String(durationS), '-m', 'POST', '-H', 'content-type=application/json', '-H', `authorization=Bearer ${g.key}`, '-b', body]
  const out = await runChild([Bun.which('node') ?? 'bun', cli, ...args, `${g.url}/v1/chat/completions`], { timeoutMs: (durationS + 30) * 1000 })
  const r = JSON.parse(out.stdout) as { requests: { average: number; total: number }; non2xx: number; errors: number }
  if (r.non2xx || r.errors) throw new Error(`${side}: ${r.non2xx} non-2xx, ${r.errors} errors`)
  return { rps: r.requests.average, cpuUs: ((cpuMs(g.pid) - cpuBefore) * 1000) / r.requests.total }
}

// warm both (JIT) before measuring
await load('A', 8, 10)
await load('B', 8, 10)
const seen: Record<Side, { rps: number; cpuUs: number }[]> = { A: [], B: [] }
for (let i = 0; i < rounds; i++) {
  for (const side of (i % 2 ? ['B', 'A'] : ['A', 'B']) as Side[]) {
    const r = await load(side, conns, seconds)
    seen[side].push(r)
    console.error(`${side} round ${i}: ${r.rps.toFixed(0)} rps, ${r.cpuUs.toFixed(1)} µs CPU per request`)
  }
}
const of = (side: Side, key: 'rps' | 'cpuUs') => median(seen[side].map((r) => r[key]))
const ratio = (key: 'rps' | 'cpuUs') => median(seen.B.map((r, i) => r[key] / seen.A[i]![key]))
console.log(JSON.stringify({ connections: conns, bodyBytes: body.length, A: { rps: of('A', 'rps'), cpuUs: of('A', 'cpuUs') }, B: { rps: of('B', 'rps'), cpuUs: of('B', 'cpuUs') }, bOverA: { rps: ratio('rps'), cpuUs: ratio('cpuUs') } }))
await gateways.A.stop()
await gateways.B.stop()
await fake.child.stop()
