/**
 * Issue #18: what Tollgate adds on real agent traffic as the request grows. The body is Claude Code's
 * captured second turn (tests/fixtures/clients/claude-code-tool-result-followup.json) grown with more
 * Read tool rounds whose tool_result carries real source text (tests/helpers/agent-body.ts) to 35 KB,
 * 200 KB, 1 MB and 4 MB.
 *
 *   bun bench/agent-bodies.ts [--gateway=build|binary|source|<path>] [--no-portkey] [--sizes=35k,200k,1m,4m (also 23k: the captured turn itself)] [--quick] [--concurrent=50] [--throughput] [--warmup=1500] [--upstream-ms=20] [--fake-parses] [--out=<file.json>]
 *
 * Two paths: passthrough (/v1/messages → Anthropic channel) and conversion (/v1/messages → OpenAI chat
 * channel). Targets, interleaved round by round: direct (the same request to the fake), the floor (a bare Bun
 * proxy, floor-proxy.ts), Tollgate, and Portkey (anthropic provider for passthrough, openai for conversion).
 * Per size and path: non-stream p50 and added time (target − direct), added per MB, TTFT p50 of a stream
 * (first content_block_delta), and CPU ms per request of the proxy process (all its threads, from
 * /proc/<pid>/task/<tid>/schedstat, over the measured non-stream requests). Prints a Markdown table.
 *
 * `--upstream-ms=N`: the fake waits N ms before every answer, whatever the size. Without it the fake answers as
 * soon as it has drained the body, so the wait between two requests grows with the body, and on this machine work
 * after a longer idle runs slower (bench/idle-penalty.ts): the slope then counts that too. With the same wait at
 * every size (a real upstream's is hundreds of ms) the slope is the body's alone. `--fake-parses`: the fake parses
 * every body whole (fake-upstream.ts `--parse-bodies`), as it did before 2026-11-28.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { agentBody } from '../tests/helpers/agent-body'
import { AGENT_SIZES, dropFromPageCache, median, rssMb, rssSampler, runChild } from './lib'
import { ROOT, UPSTREAM_KEY, resolveGatewayCommand, startFake, startFloor, startGateway, startPortkey, tempDir } from './targets'

const args = Bun.argv.slice(2)
const flag = (name: string) => args.find((a) => a.startsWith(`--${name}=`))?.split('=')[1]
const quick = args.includes('--quick')
const sizes = (flag('sizes') ?? '35k,200k,1m,4m').split(',')
/** requests per target per round; 4 rounds */
const PER_ROUND: Record<string, number> = quick ? { '23k': 10, '35k': 10, '200k': 5, '1m': 3, '4m': 2 } : { '23k': 150, '35k': 150, '200k': 60, '1m': 25, '4m': 10 }
const ROUNDS = quick ? 1 : 4
const log = (...parts: unknown[]) => console.error(`[agent-bodies ${new Date().toISOString().slice(11, 19)}]`, ...parts)

const upstreamMs = Number(flag('upstream-ms') ?? 0)
// the fake reads its per-request profile from the model name (`-l<MS>`: wait before answering; fake-upstream.ts)
const wait = upstreamMs > 0 ? `-l${upstreamMs}` : ''
const M = { pass: `claude-bench-d16${wait}`, passStream: `claude-bench-d4-p10${wait}`, conv: `bench-agent-d16${wait}`, convStream: `bench-agent-d4-p10${wait}` }

interface Req { url: string; headers: Record<string, string>; body: string; pid: number }

/** Each thread's last CPU ns seen, so a thread that exits (a JIT or pool worker) does not take its time back from the sum. */
const threadNs = new Map<number, Map<string, number>>()
function cpuMs(pid: number): number {
  let seen = threadNs.get(pid)
  if (!seen) threadNs.set(pid, (seen = new Map()))
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      try {
        seen.set(tid, Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]))
      } catch {}
    }
  } catch {}
  let ns = 0
  for (const value of seen.values()) ns += value
  return ns / 1e6
}

async function once(req: Req): Promise<number> {
  const t0 = performance.now()
  const res = await fetch(req.url, { method: 'POST', headers: req.headers, body: req.body })
  const text = await res.text()
  const ms = performance.now() - t0
  if (!res.ok || !text.includes('w15')) throw new Error(`${req.url} ${res.status}: ${text.slice(0, 200)}`)
  return ms
}

async function ttft(req: Req): Promise<number> {
  const t0 = performance.now()
  const res = await fetch(req.url, { method: 'POST', headers: req.headers, body: req.body })
  if (!res.ok) throw new Error(`${req.url} ${res.status}: ${(await res.text()).slice(0, 200)}`)
  const reader = res.body!.getReader()
  const dec = new TextDecoder()
  let seen = ''
  let first = NaN
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    seen += dec.decode(value, { stream: true })
    if (Number.isNaN(first) && seen.includes('content_block_delta')) first = performance.now() - t0
  }
  if (Number.isNaN(first)) throw new Error(`${req.url}: no content_block_delta in ${seen.slice(0, 200)}`)
  return first
}

const fakeParses = args.includes('--fake-parses')
const fake = await startFake(fakeParses ? ['--parse-bodies'] : [])
const floor = await startFloor(fake)
const work = tempDir()
const mode = flag('gateway') ?? 'build'
const gwCmd = await resolveGatewayCommand(mode, work)
if (gwCmd.note) log(gwCmd.note)
if (gwCmd.cmd.length === 1) dropFromPageCache(gwCmd.cmd[0]!)
const gw = await startGateway(gwCmd.cmd, gwCmd.how, fake, { openai: [M.conv, M.convStream], chatOnly: ['bench-unused'], anthropic: [M.pass, M.passStream] })
let portkey: Awaited<ReturnType<typeof startPortkey>> | undefined
if (!args.includes('--no-portkey')) {
  try {
    portkey = await startPortkey()
  } catch (error) {
    log(`portkey did not start: ${String(error).slice(0, 200)}`)
  }
}
const commit = (await Bun.$`git -C ${ROOT} rev-parse --short HEAD`.quiet().nothrow()).stdout.toString().trim()
log(`gateway: ${gw.how}; portkey: ${portkey ? 'on' : 'off'}; commit ${commit}`)

const anth = { 'content-type': 'application/json', 'anthropic-version': '2023-06-01' }
function targets(body: string, conversion: boolean): Record<string, Req> {
  const out: Record<string, Req> = {
    direct: { url: `${fake.url}/v1/messages`, headers: { ...anth, 'x-api-key': UPSTREAM_KEY }, body, pid: fake.child.pid },
    floor: { url: `${floor.url}/v1/messages`, headers: { ...anth, 'x-api-key': UPSTREAM_KEY }, body, pid: floor.child.pid },
    tollgate: { url: `${gw.url}/v1/messages`, headers: { ...anth, 'x-api-key': gw.key }, body, pid: gw.pid },
  }
  if (portkey) {
    const provider: Record<string, string> = conversion
      ? { 'x-portkey-provider': 'openai', authorization: `Bearer ${UPSTREAM_KEY}` }
      : { 'x-portkey-provider': 'anthropic', 'x-api-key': UPSTREAM_KEY }
    out.portkey = { url: `${portkey.url}/v1/messages`, headers: { ...anth, ...provider, 'x-portkey-custom-host': `${fake.url}/v1` }, body, pid: portkey.pid }
  }
  return out
}

interface Stat { p50: number; ttft: number; cpu: number; error?: string }
const results: Record<string, Record<string, Record<string, Stat>>> = {}
const bodyBytes: Record<string, number> = {}

// JavaScriptCore compiles a gateway's hot code into higher tiers over its first few thousand requests (see lane 1 in
// README): without this the first size measured pays for it, in its latency and most in its CPU
const warmup = quick ? 0 : Number(flag('warmup') ?? 1500)
if (warmup > 0) {
  const small = agentBody(AGENT_SIZES['35k']!)
  for (const conversion of [false, true]) {
    const plain = targets(JSON.stringify({ ...small, model: conversion ? M.conv : M.pass, stream: false }), conversion)
    const streamed = targets(JSON.stringify({ ...small, model: conversion ? M.convStream : M.passStream, stream: true }), conversion)
    for (const name of Object.keys(plain)) {
      try {
        for (let i = 0; i < warmup; i++) await once(plain[name]!)
        for (let i = 0; i < warmup / 20; i++) await ttft(streamed[name]!)
      } catch (error) {
        log(`warm-up ${name}${conversion ? ' (conversion)' : ''}: ${String(error).slice(0, 120)}`)
      }
    }
  }
  log(`warmed up: ${warmup} requests and ${warmup / 20} streams per target and path`)
}

for (const size of sizes) {
  const grown = agentBody(AGENT_SIZES[size]!)
  for (const path of ['passthrough', 'conversion'] as const) {
    const conversion = path === 'conversion'
    const plain = JSON.stringify({ ...grown, model: conversion ? M.conv : M.pass, stream: false })
    const streamed = JSON.stringify({ ...grown, model: conversion ? M.convStream : M.passStream, stream: true })
    bodyBytes[size] = Buffer.byteLength(plain)
    const reqs = targets(plain, conversion)
    const sreqs = targets(streamed, conversion)
    const names = Object.keys(reqs).filter((n) => n !== 'portkey' || reqs.portkey)
    const ms: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]))
    const tt: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]))
    const cpu: Record<string, number> = Object.fromEntries(names.map((n) => [n, 0]))
    const failed: Record<string, string> = {}
    const per = PER_ROUND[size]!
    for (const n of names) {
      try {
        for (let i = 0; i < Math.max(5, per); i++) await once(reqs[n]!)
        for (let i = 0; i < 3; i++) await ttft(sreqs[n]!)
      } catch (error) {
        failed[n] = String(error).slice(0, 160)
        log(`${size} ${path} ${n} failed: ${failed[n]}`)
      }
    }
    // request by request across the targets (the order rotated each round): the box's load, which other work
    // changes from second to second, then falls on every target alike
    const live = names.filter((n) => !failed[n])
    for (let r = 0; r < ROUNDS; r++) {
      const order = live.map((_, i) => live[(i + r) % live.length]!)
      for (let i = 0; i < per; i++) {
        for (const n of order) {
          const before = cpuMs(reqs[n]!.pid)
          ms[n]!.push(await once(reqs[n]!))
          cpu[n]! += cpuMs(reqs[n]!.pid) - before
        }
      }
      for (let i = 0; i < Math.max(3, Math.ceil(per / 3)); i++) for (const n of order) tt[n]!.push(await ttft(sreqs[n]!))
    }
    results[size] ??= {}
    results[size]![path] = Object.fromEntries(names.map((n) => [n, { p50: median(ms[n]!), ttft: median(tt[n]!), cpu: cpu[n]! / Math.max(1, ms[n]!.length), error: failed[n] }]))
    const r = results[size]![path]!
    log(`${size} ${path}: ${names.map((n) => `${n} p50 ${r[n]!.p50.toFixed(2)} ttft ${r[n]!.ttft.toFixed(2)} cpu ${r[n]!.cpu.toFixed(2)}`).join(' | ')}`)
  }
}

// --concurrent=N: N simultaneous 4 MB passthrough requests through Tollgate, then through the floor (a bare Bun
// proxy that buffers the body as Tollgate must), then converted through Tollgate; each one's peak RSS above its idle
// (target ≤ 250 MB at 50)
const concurrent = Number(flag('concurrent') ?? 0)
let rssLine = ''
if (concurrent > 0) {
  const body = JSON.stringify({ ...agentBody(4 << 20), model: M.pass, stream: false })
  const burst = async (req: Req) => {
    await Bun.sleep(2000)
    const idle = rssMb(req.pid)
    const sampler = rssSampler(req.pid, 20)
    const t0 = performance.now()
    const done = await Promise.allSettled(Array.from({ length: concurrent }, () => once(req)))
    const wall = performance.now() - t0
    const { peak } = sampler.stop()
    return { idle, peak, wall, failed: done.filter((d) => d.status === 'rejected').length }
  }
  const { tollgate, floor: bare } = targets(body, false)
  const t = await burst(tollgate!)
  const b = await burst(bare!)
  // the same burst converted (→ the OpenAI chat channel): what decoding, encoding and the upstream body add
  const c = await burst(targets(JSON.stringify({ ...agentBody(4 << 20), model: M.conv, stream: false }), true).tollgate!)
  rssLine = `${concurrent} concurrent 4 MB passthrough requests: Tollgate idle RSS ${t.idle.toFixed(1)} MB, peak ${t.peak.toFixed(1)} MB (+${(t.peak - t.idle).toFixed(1)} MB; target ≤ +250), ${t.failed} failed, all done in ${t.wall.toFixed(0)} ms; the floor (bare Bun proxy, body buffered) +${(b.peak - b.idle).toFixed(1)} MB (idle ${b.idle.toFixed(1)}, peak ${b.peak.toFixed(1)}), ${b.failed} failed, ${b.wall.toFixed(0)} ms; converted, Tollgate +${(c.peak - c.idle).toFixed(1)} MB (idle ${c.idle.toFixed(1)}, peak ${c.peak.toFixed(1)}), ${c.failed} failed, ${c.wall.toFixed(0)} ms.`
  log(rssLine)
}

// --throughput: autocannon at 16 connections with the 200 KB passthrough body against each target, the order rotated
// over 2 rounds of 5 s; requests per second (the issue: Tollgate ≥ 3× Portkey in the same run)
let throughputLine = ''
if (args.includes('--throughput')) {
  const file = join(work, 'body-200k.json')
  writeFileSync(file, JSON.stringify({ ...agentBody(200_000), model: M.pass, stream: false }))
  const reqs = targets('', false)
  const names = Object.keys(reqs)
  const rps: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]))
  const cannon = async (req: Req, seconds: number) => {
    const headers = Object.entries(req.headers).flatMap(([k, v]) => ['-H', `${k}=${v}`])
    const cli = join(ROOT, 'node_modules/autocannon/autocannon.js')
    const out = await runChild([Bun.which('node') ?? 'bun', cli, '-j', '-c', '16', '-d', String(seconds), '-m', 'POST', ...headers, '-i', file, req.url], { timeoutMs: (seconds + 30) * 1000 })
    const r = JSON.parse(out.stdout) as { requests: { average: number }; errors: number; timeouts: number; non2xx: number }
    if (r.errors || r.timeouts || r.non2xx) throw new Error(`autocannon ${req.url}: ${r.errors} errors, ${r.timeouts} timeouts, ${r.non2xx} non-2xx`)
    return r.requests.average
  }
  for (const n of names) await cannon(reqs[n]!, 2)
  for (let round = 0; round < 2; round++) for (const n of names.map((_, i) => names[(i + round) % names.length]!)) rps[n]!.push(await cannon(reqs[n]!, 5))
  const best = (n: string) => Math.max(...rps[n]!)
  throughputLine = `200 KB passthrough at 16 connections (autocannon, best of 2 × 5 s): ${names.map((n) => `${n} ${best(n).toFixed(0)} rps`).join(', ')}${reqs.portkey ? `; Tollgate / Portkey ${(best('tollgate') / best('portkey')).toFixed(2)}×` : ''}; Tollgate / floor ${(best('tollgate') / best('floor')).toFixed(2)}×.`
  log(throughputLine)
}

const f = (n: number) => (Number.isFinite(n) ? n.toFixed(2) : '–')
const lines = [
  `Agent bodies (issue #18), ${new Date().toISOString().slice(0, 16)}Z, commit ${commit}, Tollgate ${gw.how}${upstreamMs ? `, the fake waiting ${upstreamMs} ms before every answer` : ''}${fakeParses ? ', the fake parsing every body' : ''}. Added = target − direct (ms, p50, non-stream); ms per MB = (added − added at the smallest body) / (MB − its MB), CPU ms per MB the same slope of the proxy's CPU per request; TTFT = first content_block_delta of a stream, p50; CPU = ms of the proxy process per non-stream request (direct: the fake's own).`,
  '',
  '| body | path | direct p50 | floor added | Tollgate added | Tollgate / floor added | ms per MB (slope from the first size) Tollgate / floor | CPU ms per MB Tollgate / floor | Portkey added | TTFT direct / floor / Tollgate / Portkey | CPU ms/req fake / floor / Tollgate / Portkey |',
  '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
]
for (const size of sizes) {
  for (const path of ['passthrough', 'conversion']) {
    const r = results[size]?.[path]
    if (!r) continue
    const d = r.direct!
    const added = (n: string) => (r[n] && !r[n]!.error ? r[n]!.p50 - d.p50 : NaN)
    const mb = bodyBytes[size]! / (1 << 20)
    const pk = r.portkey ? (r.portkey.error ? `failed (${r.portkey.error.replace(/^.*?\d{3}: /, '').slice(0, 60)})` : f(added('portkey'))) : 'not run'
    // per MB: the slope from the smallest body, so the fixed per-request cost is not counted as size
    const base = results[sizes[0]!]?.[path]
    const baseAdded = base ? base.tollgate!.p50 - base.direct!.p50 : NaN
    const dMb = mb - bodyBytes[sizes[0]!]! / (1 << 20)
    const slope = size === sizes[0] ? NaN : (added('tollgate') - baseAdded) / dMb
    const floorSlope = size === sizes[0] || !base ? NaN : (added('floor') - (base.floor!.p50 - base.direct!.p50)) / dMb
    // CPU per MB, the same slope of each proxy's own CPU per request: steadier than latency on a shared box
    const cpuSlope = (n: string) => (size === sizes[0] || !base?.[n] || !r[n] || r[n]!.error ? NaN : (r[n]!.cpu - base[n]!.cpu) / dMb)
    lines.push(
      `| ${(bodyBytes[size]! / 1024).toFixed(0)} KB | ${path} | ${f(d.p50)} | ${f(added('floor'))} | ${f(added('tollgate'))} | ${f(added('tollgate') / added('floor'))}× | ${f(slope)} / ${f(floorSlope)} | ${f(cpuSlope('tollgate'))} / ${f(cpuSlope('floor'))} | ${pk} | ${[d, r.floor, r.tollgate, r.portkey].map((s) => (s && !s.error ? f(s.ttft) : '–')).join(' / ')} | ${[d, r.floor, r.tollgate, r.portkey].map((s) => (s && !s.error ? f(s.cpu) : '–')).join(' / ')} |`,
    )
  }
}
console.log(lines.join('\n') + (rssLine ? `\n\n${rssLine}` : '') + (throughputLine ? `\n\n${throughputLine}` : ''))
const out = flag('out')
if (out) writeFileSync(out, JSON.stringify({ commit, how: gw.how, bodyBytes, results }, null, 2))
await gw.stop()
await portkey?.child.stop()
await floor.child.stop()
await fake.child.stop()
process.exit(0)
