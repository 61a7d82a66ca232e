/**
 * What metrics and JSON logs cost the relay: the same compiled gateway twice, side by side in one run,
 *   on:  METRICS_ENABLED=true, LOG_FORMAT=json, LOG_LEVEL=info (a line per request, read by another process
 *        as journald or Docker would), and /metrics scraped every second as Prometheus would (more often
 *        than its usual 15 s);
 *   off: METRICS_ENABLED=false, LOG_LEVEL=warn (no per-request line, nothing recorded).
 * Measured, interleaved round by round with the order rotated: the relay's added p50 (one chat request at a
 * time over keep-alive, gateway minus the fake upstream alone), and throughput (autocannon, 16 connections).
 * Each figure is reported as on / off with the spread of the rounds (the run's noise).
 *
 *   bun bench/ops-overhead.ts [--rounds=5] [--per-round=500] [--seconds=5] [--gateway=build|binary|<path>]
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { sequential, type Req } from './clients'
import { median, round, runChild } from './lib'
import { resolveGatewayCommand, ROOT, startFake, startGateway, tempDir, type Gateway } from './targets'

const option = (name: string, fallback: string) => Bun.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback
const ROUNDS = Number(option('rounds', '5'))
const PER_ROUND = Number(option('per-round', '500'))
const SECONDS = Number(option('seconds', '5'))
const WARMUP = Number(option('warmup', '3000'))
const log = (s: string) => console.error(s)

const fake = await startFake()
const work = tempDir()
const gateway = await resolveGatewayCommand(option('gateway', 'build'), work)
if (gateway.note) log(gateway.note)
const models = { openai: ['bench-d16'], chatOnly: ['chatonly-d16'] }
/** --on=K=V,K=V / --off=…: other settings for either side (to take the two apart) */
const settings = (name: string, base: Record<string, string>) => ({
  ...base,
  ...Object.fromEntries((Bun.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3).split(',') ?? []).filter(Boolean).map((kv) => kv.split('=') as [string, string])),
})
const modes = {
  on: settings('on', { METRICS_ENABLED: 'true', LOG_FORMAT: 'json', LOG_LEVEL: 'info' }),
  off: settings('off', { METRICS_ENABLED: 'false', LOG_FORMAT: 'json', LOG_LEVEL: 'warn' }),
}
type Mode = keyof typeof modes
// --same=off (or on): both gateways alike, to see what the setup alone differs by (an A/A run)
const same = Bun.argv.find((a) => a.startsWith('--same='))?.split('=')[1] as Mode | undefined
// The gateway's stdout goes to another process, as it goes to journald or Docker: its first reads (the start
// line, the setup) come through to this process, the rest is counted by `wc -l`, which prints the count when
// the gateway ends. Read here, the log lines competed with the client's own event loop and showed up in its
// latency figures.
const wrapped = ['sh', '-c', '"$0" "$@" | { dd bs=65536 count=4 status=none; wc -l; }', ...gateway.cmd]
/** the gateway under the shell: its pid, for CPU figures and to stop it */
function gatewayPid(shellPid: number): number {
  const children = readFileSync(`/proc/${shellPid}/task/${shellPid}/children`, 'utf8').trim().split(/\s+/).map(Number)
  const pid = children.find((c) => readFileSync(`/proc/${c}/cmdline`, 'utf8').includes('--data-dir'))
  if (!pid) throw new Error(`no gateway under ${shellPid}`)
  return pid
}
const gw: Record<Mode, Gateway> = {
  on: await startGateway(wrapped, gateway.how, fake, models, modes[same ?? 'on']),
  off: await startGateway(wrapped, gateway.how, fake, models, modes[same ?? 'off']),
}
const pid: Record<Mode, number> = { on: gatewayPid(gw.on.pid), off: gatewayPid(gw.off.pid) }
// Prometheus' part: a scrape a second of the gateway with metrics on
let scrapes = 0
let scrapeBytes = 0
const scraper = setInterval(async () => {
  const text = await (await fetch(`${gw.on.url}/metrics`)).text()
  scrapes++
  scrapeBytes = text.length
}, 1000)

const body = JSON.stringify({ model: 'bench-d16', messages: [{ role: 'user', content: 'hello' }] })
const reqOf = (url: string, key: string): Req => ({ url: `${url}/v1/chat/completions`, headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` }, body, wire: 'chat' })
const req: Record<Mode | 'direct', Req> = {
  direct: reqOf(`${fake.url}`, 'sk-direct'),
  on: reqOf(gw.on.url, gw.on.key),
  off: reqOf(gw.off.url, gw.off.key),
}

// warm both until their JIT has settled (and the tokenizer is loaded)
for (const mode of ['on', 'off', 'direct'] as const) {
  const w = await sequential(req[mode], WARMUP)
  if (w.errors) throw new Error(`${mode}: ${w.firstError}`)
}

// ---- added p50, interleaved
const p50s: Record<Mode | 'direct', number[]> = { on: [], off: [], direct: [] }
/** the gateway's own time per request (x-tollgate-overhead-ms: arrival to response headers minus the upstream's wait), p50 per round */
const own: Record<Mode, number[]> = { on: [], off: [] }
const order: (Mode | 'direct')[] = ['on', 'off', 'direct']
for (let r = 0; r < ROUNDS; r++) {
  for (let k = 0; k < order.length; k++) {
    const mode = order[(k + r) % order.length]!
    const res = await sequential(req[mode], PER_ROUND)
    if (res.errors) throw new Error(`${mode}: ${res.firstError}`)
    p50s[mode].push(median(res.ms))
    if (mode !== 'direct') own[mode].push(median(res.overheadMs))
  }
  log(`round ${r + 1}: p50 on ${p50s.on.at(-1)!.toFixed(3)} off ${p50s.off.at(-1)!.toFixed(3)} direct ${p50s.direct.at(-1)!.toFixed(3)} ms; x-tollgate-overhead-ms p50 on ${own.on.at(-1)!.toFixed(3)} off ${own.off.at(-1)!.toFixed(3)}`)
}
const added = (mode: Mode) => p50s[mode].map((p, i) => p - p50s.direct[i]!)

// ---- throughput, interleaved
async function cannon(target: Req): Promise<number> {
  const cli = join(ROOT, 'node_modules/autocannon/autocannon.js')
  const headers = Object.entries(target.headers).flatMap(([k, v]) => ['-H', `${k}=${v}`])
  const out = await runChild([Bun.which('node') ?? 'bun', cli, '-j', '-c', '16', '-d', String(SECONDS), '-m', 'POST', ...headers, '-b', target.body, target.url], { timeoutMs: (SECONDS + 30) * 1000 })
  const r = JSON.parse(out.stdout) as { requests: { average: number }; errors: number; non2xx: number }
  if (r.errors || r.non2xx) throw new Error(`autocannon: ${r.errors} errors, ${r.non2xx} non-2xx`)
  return r.requests.average
}
/** CPU seconds the process has used (utime + stime from /proc/<pid>/stat, in clock ticks of 1/100 s) */
const cpuSeconds = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
  return (Number(fields[11]) + Number(fields[12])) / 100
}
const rps: Record<Mode, number[]> = { on: [], off: [] }
/** the gateway's CPU time per request under load, µs: what the machine's other processes cannot blur */
const cpuUs: Record<Mode, number[]> = { on: [], off: [] }
for (let r = 0; r < ROUNDS; r++) {
  for (const mode of r % 2 ? (['off', 'on'] as const) : (['on', 'off'] as const)) {
    const before = cpuSeconds(pid[mode])
    const rate = await cannon(req[mode])
    rps[mode].push(rate)
    cpuUs[mode].push(((cpuSeconds(pid[mode]) - before) / (rate * SECONDS)) * 1e6)
  }
  log(`round ${r + 1}: rps on ${rps.on.at(-1)!.toFixed(0)} off ${rps.off.at(-1)!.toFixed(0)}; gateway CPU µs/request on ${cpuUs.on.at(-1)!.toFixed(1)} off ${cpuUs.off.at(-1)!.toFixed(1)}`)
}
clearInterval(scraper)
for (const mode of ['on', 'off'] as const) process.kill(pid[mode], 'SIGTERM')
await Bun.sleep(2000)
// the line count `wc -l` printed when the gateway's stdout closed
const counted = (mode: Mode) => Number(gw[mode].child.output().trim().split('\n').at(-1)?.trim() ?? NaN)
const lines = { on: counted('on'), off: counted('off') }
for (const mode of ['on', 'off'] as const) await gw[mode].stop()
await fake.child.stop()

/** median, and the spread of the rounds around it (max − min) / median, as ±% */
const summary = (xs: number[]) => ({ median: median(xs), spreadPct: ((Math.max(...xs) - Math.min(...xs)) / 2 / median(xs)) * 100 })
const a = { on: summary(added('on')), off: summary(added('off')) }
const o = { on: summary(own.on), off: summary(own.off) }
const ratioOwn = o.on.median / o.off.median
const t = { on: summary(rps.on), off: summary(rps.off) }
const ratioAdded = a.on.median / a.off.median
const ratioRps = t.on.median / t.off.median
const c = { on: summary(cpuUs.on), off: summary(cpuUs.off) }
const ratioCpu = c.on.median / c.off.median
const within = (ratio: number, x: { spreadPct: number }, y: { spreadPct: number }) => Math.abs(ratio - 1) * 100 <= x.spreadPct + y.spreadPct
const result = {
  how: gateway.how,
  rounds: ROUNDS,
  perRound: PER_ROUND,
  seconds: SECONDS,
  addedP50Ms: { on: round(a.on.median), off: round(a.off.median), ratio: round(ratioAdded), spreadPct: { on: round(a.on.spreadPct, 1), off: round(a.off.spreadPct, 1) }, withinNoise: within(ratioAdded, a.on, a.off) },
  overheadHeaderP50Ms: { on: round(o.on.median), off: round(o.off.median), ratio: round(ratioOwn), spreadPct: { on: round(o.on.spreadPct, 1), off: round(o.off.spreadPct, 1) }, withinNoise: within(ratioOwn, o.on, o.off) },
  rps: { on: Math.round(t.on.median), off: Math.round(t.off.median), ratio: round(ratioRps), spreadPct: { on: round(t.on.spreadPct, 1), off: round(t.off.spreadPct, 1) }, withinNoise: within(ratioRps, t.on, t.off) },
  cpuUsPerRequest: { on: round(c.on.median, 1), off: round(c.off.median, 1), ratio: round(ratioCpu), spreadPct: { on: round(c.on.spreadPct, 1), off: round(c.off.spreadPct, 1) }, withinNoise: within(ratioCpu, c.on, c.off) },
  scrapes,
  scrapeBytes,
  // log lines each gateway wrote after its first reads (counted by wc -l in the other process): logging was on, or off
  logLinesCounted: lines,
  raw: { p50s, own, rps, cpuUs },
}
console.log(JSON.stringify(result, null, 2))
console.log(`
| measure (one run, ${ROUNDS} interleaved rounds) | metrics + JSON logs on | off | on / off | noise (spread of the rounds) | within noise |
|---|---|---|---|---|---|
| relay added p50, ms (gateway − direct) | ${result.addedP50Ms.on} | ${result.addedP50Ms.off} | ${result.addedP50Ms.ratio} | ±${result.addedP50Ms.spreadPct.on}% / ±${result.addedP50Ms.spreadPct.off}% | ${result.addedP50Ms.withinNoise ? 'yes' : 'no'} |
| the gateway's own time, x-tollgate-overhead-ms p50 | ${result.overheadHeaderP50Ms.on} | ${result.overheadHeaderP50Ms.off} | ${result.overheadHeaderP50Ms.ratio} | ±${result.overheadHeaderP50Ms.spreadPct.on}% / ±${result.overheadHeaderP50Ms.spreadPct.off}% | ${result.overheadHeaderP50Ms.withinNoise ? 'yes' : 'no'} |
| the gateway's CPU per request under load, µs | ${result.cpuUsPerRequest.on} | ${result.cpuUsPerRequest.off} | ${result.cpuUsPerRequest.ratio} | ±${result.cpuUsPerRequest.spreadPct.on}% / ±${result.cpuUsPerRequest.spreadPct.off}% | ${result.cpuUsPerRequest.withinNoise ? 'yes' : 'no'} |
| throughput, req/s (16 connections, ${SECONDS} s) | ${result.rps.on} | ${result.rps.off} | ${result.rps.ratio} | ±${result.rps.spreadPct.on}% / ±${result.rps.spreadPct.off}% | ${result.rps.withinNoise ? 'yes' : 'no'} |
`)
process.exit(0)
