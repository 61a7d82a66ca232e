/**
 * Tollgate benchmarks: overhead, streaming, throughput, many open streams and memory, each lane comparing
 * Tollgate with direct-to-upstream (and the Portkey gateway, and a bare Bun proxy as the floor, on lanes
 * 1a, 2a and 3) in the same run.
 *
 *   bun bench/run.ts            full run (~6–8 minutes on 2 cores); prints the table, writes bench/results/<ts>.json
 *   bun bench/run.ts --quick    seconds: tiny counts, gateway from source (what CI runs)
 *
 * Flags: --gateway=build|binary|source|<path>  --no-portkey  --no-floor  --lanes=1,2,3,4,5  --settle-seconds=N
 *        --out=<file.json>  --readme (write the table into bench/README.md)
 * See bench/README.md.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { cpus, totalmem } from 'node:os'
import { join } from 'node:path'
import { sequential, stream, type Req, type SequentialResult, type StreamResult } from './clients'
import { dropFromPageCache, jitMsBetween, jitThreadsMs, median, percentile, round, rssMb, rssPartsMb, rssSampler, runChild } from './lib'
import { portkeyHeaders, resolveGatewayCommand, ROOT, startFake, startFloor, startGateway, startPortkey, tempDir, type Fake, type Gateway, type Portkey } from './targets'

// ---------------------------------------------------------------------------------------------- settings
const argv = Bun.argv.slice(2)
const flag = (name: string) => argv.includes(`--${name}`)
const option = (name: string) => argv.find((a) => a.startsWith(`--${name}=`))?.split('=').slice(1).join('=')
const quick = flag('quick')
const lanes = new Set((option('lanes') ?? '1,2,3,4,5').split(',').map((s) => s.trim()))

const S = quick
  ? {
      overhead: { warmup: 20, warmupMax: 20, chunk: 20, quietChunks: 1, quietJitMs: 1, perRound: 25, rounds: 2 },
      streaming: { deltas: 8, paceMs: 5, concurrent: 2, rounds: 1, warmup: 8 },
      throughput: { sweep: [1, 4], seconds: 1, warmupSeconds: 0 },
      many: { count: 50, deltas: 5, paceMs: 50, rampMs: 200, settleSeconds: 1 },
      memory: { steadySeconds: 1, settleSeconds: Number(option('settle-seconds') ?? 1), idleWaitMs: 200 },
    }
  : {
      overhead: { warmup: 300, warmupMax: 60_000, chunk: 1000, quietChunks: 5, quietJitMs: 1, perRound: 500, rounds: 5 },
      streaming: { deltas: 64, paceMs: 20, concurrent: 8, rounds: 4, warmup: 400 },
      throughput: { sweep: [1, 4, 16, 64, 256], seconds: 5, warmupSeconds: 2 },
      many: { count: 2000, deltas: 20, paceMs: 500, rampMs: 4000, settleSeconds: 10 },
      // idle: 5 s with no request after the setup (the gateway's idle collector runs after 1 quiet second)
      memory: { steadySeconds: 20, settleSeconds: Number(option('settle-seconds') ?? 60), idleWaitMs: 5000 },
    }
const gatewayMode = option('gateway') ?? (quick ? 'source' : 'build')
const withPortkey = !flag('no-portkey')
const withFloor = !flag('no-floor')

/** Model names tell the fake how to answer (see fake-upstream.ts): deltas, pace. */
const M = {
  small: 'bench-d16',
  stream: `bench-d${S.streaming.deltas}-p${S.streaming.paceMs}`,
  many: `bench-d${S.many.deltas}-p${S.many.paceMs}`,
  /** unpaced streams, to warm the stream path before lane 2 measures it */
  warm: `bench-d${S.streaming.deltas}-p0`,
  chatOnly: 'chatonly-d16',
  /** served by an Anthropic channel: lane 1d's captured Claude Code request */
  anthropic: 'claude-bench-d16',
}

// ---------------------------------------------------------------------------------------------- targets
interface Targets {
  fake: Fake
  gw: Gateway
  portkey?: Portkey
  portkeyError?: string
  /** a bare Bun.serve + fetch proxy: what any Bun gateway costs at least */
  floor?: Fake
}

const json = { 'content-type': 'application/json' }
const chatBody = (model: string, stream = false) =>
  JSON.stringify({ model, messages: [{ role: 'user', content: 'Say hello in a few words.' }], max_tokens: 64, ...(stream ? { stream: true, stream_options: { include_usage: true } } : {}) })
const messagesBody = (model: string, stream = false) =>
  JSON.stringify({ model, max_tokens: 64, messages: [{ role: 'user', content: 'Say hello in a few words.' }], ...(stream ? { stream: true } : {}) })
const responsesBody = (model: string, stream = false) =>
  JSON.stringify({ model, input: 'Say hello in a few words.', max_output_tokens: 64, ...(stream ? { stream: true } : {}) })

function chatReqs(t: Targets, model: string, stream = false): Record<string, Req> {
  const body = chatBody(model, stream)
  const reqs: Record<string, Req> = {
    direct: { url: `${t.fake.url}/v1/chat/completions`, headers: { ...json, authorization: 'Bearer sk-bench-upstream-0123456789' }, body, wire: 'chat' },
    tollgate: { url: `${t.gw.url}/v1/chat/completions`, headers: { ...json, authorization: `Bearer ${t.gw.key}` }, body, wire: 'chat' },
  }
  if (t.portkey) reqs.portkey = { url: `${t.portkey.url}/v1/chat/completions`, headers: { ...json, ...portkeyHeaders(t.fake) }, body, wire: 'chat' }
  if (t.floor) reqs.floor = { ...reqs.direct!, url: `${t.floor.url}/v1/chat/completions` }
  return reqs
}

function messagesReqs(t: Targets, model: string, stream = false): Record<string, Req> {
  const body = messagesBody(model, stream)
  const headers = { ...json, 'anthropic-version': '2023-06-01' }
  return {
    direct: { url: `${t.fake.url}/v1/messages`, headers: { ...headers, 'x-api-key': 'sk-bench-upstream-0123456789' }, body, wire: 'messages' },
    tollgate: { url: `${t.gw.url}/v1/messages`, headers: { ...headers, 'x-api-key': t.gw.key }, body, wire: 'messages' },
  }
}

/** Claude Code's second turn as captured (tools, system prompt, a tool result; 23 KB), its model swapped for the fake's. */
function claudeCodeReqs(t: Targets, model: string): Record<string, Req> {
  const fixture = JSON.parse(readFileSync(join(ROOT, 'tests/fixtures/clients/claude-code-tool-result-followup.json'), 'utf8')) as { body: Record<string, unknown> }
  const body = JSON.stringify({ ...fixture.body, model, stream: false })
  const headers = { ...json, 'anthropic-version': '2023-06-01' }
  return {
    direct: { url: `${t.fake.url}/v1/messages`, headers: { ...headers, 'x-api-key': 'sk-bench-upstream-0123456789' }, body, wire: 'messages' },
    tollgate: { url: `${t.gw.url}/v1/messages`, headers: { ...headers, 'x-api-key': t.gw.key }, body, wire: 'messages' },
    // the floor forwards the body both ways as any gateway must: what 23 KB costs on its own
    ...(t.floor ? { floor: { url: `${t.floor.url}/v1/messages`, headers: { ...headers, 'x-api-key': 'sk-bench-upstream-0123456789' }, body, wire: 'messages' as const } } : {}),
  }
}

function responsesReqs(t: Targets, model: string, stream = false): Record<string, Req> {
  const body = responsesBody(model, stream)
  return {
    direct: { url: `${t.fake.url}/v1/responses`, headers: { ...json, authorization: 'Bearer sk-bench-upstream-0123456789' }, body, wire: 'responses' },
    tollgate: { url: `${t.gw.url}/v1/responses`, headers: { ...json, authorization: `Bearer ${t.gw.key}` }, body, wire: 'responses' },
  }
}

// ---------------------------------------------------------------------------------------------- results
interface Row {
  lane: string
  measure: string
  direct?: number | string | null
  tollgate?: number | string | null
  added?: number | string | null
  ratio?: number | null
  portkey?: number | string | null
  floor?: number | string | null
  target?: string
  pass?: boolean | null
}

const rows: Row[] = []
const raw: Record<string, unknown> = {}
const notes: string[] = []
const log = (...parts: unknown[]) => console.error(`[bench ${new Date().toISOString().slice(11, 19)}]`, ...parts)

// ---------------------------------------------------------------------------------------------- lane 1
async function laneOverhead(t: Targets) {
  const cases: { id: string; name: string; reqs: Record<string, Req>; p50Target?: number }[] = [
    { id: '1a', name: 'chat → OpenAI (passthrough)', reqs: chatReqs(t, M.small), p50Target: 0.15 },
    { id: '1b', name: 'messages → OpenAI chat (conversion)', reqs: messagesReqs(t, M.small), p50Target: 0.3 },
    { id: '1c', name: 'responses → chat (conversion)', reqs: responsesReqs(t, M.chatOnly), p50Target: 0.3 },
    // not one of the issue's lanes: what a real client's request costs (the tiny bodies above hide body-size costs)
    { id: '1d', name: 'Claude Code request, 23 KB → Anthropic (passthrough)', reqs: claudeCodeReqs(t, M.anthropic) },
  ]
  for (const c of cases) {
    // a route that is not there yet makes the lane say so and the run go on
    const probe = await fetch(c.reqs.tollgate!.url, { method: 'POST', headers: c.reqs.tollgate!.headers, body: c.reqs.tollgate!.body })
    const probeText = await probe.text()
    if (probe.status === 404 && !/model/i.test(probeText)) {
      rows.push({ lane: c.id, measure: `${c.name}: skipped: route missing`, pass: null })
      raw[`overhead_${c.id}`] = { skipped: 'route missing', probe: probeText.slice(0, 200) }
      log(`lane ${c.id} skipped: route missing`)
      continue
    }
    const names = Object.keys(c.reqs)
    const warmed: Record<string, { requests: number; jitMs: number }> = {}
    for (const name of names) warmed[name] = await warmUntilJitQuiet(c.reqs[name]!, pidOf(t, name))
    log(`lane ${c.id} warm-up: ${names.map((n) => `${n} ${warmed[n]!.requests} requests (JIT ${warmed[n]!.jitMs} ms)`).join(', ')}`)
    const all: Record<string, SequentialResult> = Object.fromEntries(names.map((n) => [n, { ms: [], errors: 0, overheadMs: [] }]))
    const roundP50: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]))
    const jitBefore = Object.fromEntries(names.map((n) => [n, jitThreadsMs(pidOf(t, n))]))
    for (let r = 0; r < S.overhead.rounds; r++) {
      // interleaved: every target once per round, the order rotated each round
      const order = names.map((_, i) => names[(i + r) % names.length]!)
      for (const name of order) {
        const res = await sequential(c.reqs[name]!, S.overhead.perRound)
        const acc = all[name]!
        acc.ms.push(...res.ms)
        acc.overheadMs.push(...res.overheadMs)
        acc.errors += res.errors
        acc.firstError ??= res.firstError
        roundP50[name]!.push(median(res.ms))
      }
    }
    // compiles that still ran while measuring: a tail that shows up with these is the JIT's, not the request path's
    const jitDuring = Object.fromEntries(names.map((n) => [n, round(jitMsBetween(jitBefore[n]!, jitThreadsMs(pidOf(t, n))), 1) ?? NaN]))
    log(`lane ${c.id} JIT ms while measuring: ${names.map((n) => `${n} ${jitDuring[n]}`).join(', ')}`)
    const stat = (name: string) => ({ p50: percentile(all[name]!.ms, 50), p99: percentile(all[name]!.ms, 99), n: all[name]!.ms.length, errors: all[name]!.errors, firstError: all[name]!.firstError })
    const d = stat('direct')
    const g = stat('tollgate')
    const p = all.portkey ? stat('portkey') : undefined
    const f = all.floor ? stat('floor') : undefined
    const header = all.tollgate!.overheadMs
    raw[`overhead_${c.id}`] = { direct: d, tollgate: g, portkey: p, floor: f, warmed, jitDuring, roundP50, tollgateHeaderP50: percentile(header, 50), tollgateHeaderP99: percentile(header, 99) }
    const errs = g.errors ? ` (${g.errors} errors: ${g.firstError})` : ''
    rows.push({
      lane: c.id, measure: `${c.name}: p50 ms${errs}`, direct: round(d.p50), tollgate: round(g.p50), added: round(g.p50 - d.p50), ratio: round(g.p50 / d.p50, 2),
      portkey: p ? round(p.p50) : undefined, floor: f ? `${round(f.p50)} (+${round(f.p50 - d.p50)})` : undefined, target: c.p50Target === undefined ? undefined : `added ≤ ${c.p50Target}`,
      pass: c.p50Target === undefined ? (g.errors === 0 ? null : false) : g.errors === 0 && g.p50 - d.p50 <= c.p50Target,
    })
    rows.push({
      lane: c.id, measure: `${c.name}: p99 ms`, direct: round(d.p99), tollgate: round(g.p99), added: round(g.p99 - d.p99), ratio: round(g.p99 / d.p99, 2),
      portkey: p ? round(p.p99) : undefined, floor: f ? `${round(f.p99)} (+${round(f.p99 - d.p99)})` : undefined, target: c.p50Target === undefined ? undefined : 'added ≤ 1',
      pass: c.p50Target === undefined ? (g.errors === 0 ? null : false) : g.errors === 0 && g.p99 - d.p99 <= 1,
    })
    rows.push({ lane: c.id, measure: `${c.name}: x-tollgate-overhead-ms p50 / p99`, tollgate: `${round(percentile(header, 50))} / ${round(percentile(header, 99))}` })
    log(`lane ${c.id}: direct p50 ${d.p50.toFixed(3)} tollgate p50 ${g.p50.toFixed(3)}${p ? ` portkey p50 ${p.p50.toFixed(3)}` : ''} (n=${g.n}, errors ${g.errors})`)
  }
}

/** The process behind a target name, whose JIT the warm-up watches. */
function pidOf(t: Targets, name: string): number {
  if (name === 'tollgate') return t.gw.pid
  if (name === 'portkey' && t.portkey) return t.portkey.pid
  if (name === 'floor' && t.floor) return t.floor.child.pid
  return t.fake.child.pid
}

/**
 * Requests one at a time until the target's JIT compiler has gone quiet. JavaScriptCore keeps compiling
 * hotter tiers of a gateway's code for tens of thousands of requests; each compile runs on a background
 * thread for a few ms, and on 2 cores shared with the client and the fake it preempts one of them, which lands
 * in the p99 of a run that starts too early. A long-running gateway is past that, so lane 1 measures from
 * there: at least `overhead.warmup` requests, then chunks until `quietChunks` in a row cost the JIT at most
 * `quietJitMs` of CPU, at most `overhead.warmupMax` requests. The counts are in the JSON and the log.
 */
async function warmUntilJitQuiet(req: Req, pid: number): Promise<{ requests: number; jitMs: number }> {
  const { warmup, warmupMax, chunk, quietChunks, quietJitMs } = S.overhead
  const start = jitThreadsMs(pid)
  await sequential(req, warmup)
  let requests = warmup
  let quiet = 0
  let jitMs = jitMsBetween(start, jitThreadsMs(pid))
  while (quiet < quietChunks && requests < warmupMax) {
    const before = jitThreadsMs(pid)
    await sequential(req, chunk)
    requests += chunk
    const spent = jitMsBetween(before, jitThreadsMs(pid))
    jitMs += spent
    quiet = spent > quietJitMs ? 0 : quiet + 1
  }
  return { requests, jitMs: round(jitMs, 1) ?? NaN }
}

// ---------------------------------------------------------------------------------------------- lane 2
async function laneStreaming(t: Targets) {
  const { deltas, concurrent, rounds } = S.streaming
  const cases = [
    { id: '2a', name: 'chat stream (passthrough)', reqs: chatReqs(t, M.stream, true) },
    { id: '2b', name: 'messages stream → chat (conversion)', reqs: messagesReqs(t, M.stream, true) },
  ]
  for (const c of cases) {
    const names = Object.keys(c.reqs)
    const all: Record<string, StreamResult[]> = Object.fromEntries(names.map((n) => [n, []]))
    // A batch is `concurrent` streams started one pace/concurrent apart: a burst of simultaneous starts would
    // measure queueing in whichever server answers them, not the time each stream's first token takes.
    const batch = (req: Req) =>
      Promise.all(Array.from({ length: concurrent }, async (_, i) => {
        await Bun.sleep((i * S.streaming.paceMs) / concurrent)
        return stream(req, deltas)
      }))
    // warm-up: a gateway in service has run its stream path many times; a few hundred unpaced streams
    // take it out of the JIT's lower tiers, as lane 1's requests do for the non-stream path
    const warm = c.id === '2a' ? chatReqs(t, M.warm, true) : messagesReqs(t, M.warm, true)
    for (const name of names) {
      for (let i = 0; i < S.streaming.warmup; i += 8) await Promise.all(Array.from({ length: 8 }, () => stream(warm[name]!, deltas)))
      await batch(c.reqs[name]!)
    }
    for (let r = 0; r < rounds; r++) {
      const order = names.map((_, i) => names[(i + r) % names.length]!)
      for (const name of order) all[name]!.push(...(await batch(c.reqs[name]!)))
    }
    const stat = (name: string) => {
      const list = all[name]!
      const ok = list.filter((s) => s.ok)
      const gaps = ok.flatMap((s) => s.gapsMs)
      return {
        streams: list.length, failed: list.length - ok.length, firstError: list.find((s) => !s.ok)?.error,
        framesLost: list.length * deltas - list.reduce((sum, s) => sum + s.deltas, 0),
        ttftP50: percentile(ok.map((s) => s.ttftMs), 50), ttftP99: percentile(ok.map((s) => s.ttftMs), 99),
        gapP50: percentile(gaps, 50), gapP99: percentile(gaps, 99),
      }
    }
    const d = stat('direct')
    const g = stat('tollgate')
    const p = all.portkey ? stat('portkey') : undefined
    const f = all.floor ? stat('floor') : undefined
    raw[`streaming_${c.id}`] = { deltas, paceMs: S.streaming.paceMs, direct: d, tollgate: g, portkey: p, floor: f }
    const fl = (v: number | undefined, base: number) => (f === undefined ? undefined : f.failed ? `${f.failed} failed` : `${round(v!)} (+${round(v! - base)})`)
    const pk = (v: number | undefined, failed?: number, err?: string) => (p === undefined ? undefined : failed ? `${failed} failed: ${err?.slice(0, 80)}` : round(v!))
    rows.push({ lane: c.id, measure: `${c.name}: TTFT p50 ms`, direct: round(d.ttftP50), tollgate: round(g.ttftP50), added: round(g.ttftP50 - d.ttftP50), ratio: round(g.ttftP50 / d.ttftP50, 2), portkey: pk(p?.ttftP50, p?.failed, p?.firstError), floor: fl(f?.ttftP50, d.ttftP50), target: 'added ≤ 0.5', pass: g.failed === 0 && g.ttftP50 - d.ttftP50 <= 0.5 })
    rows.push({ lane: c.id, measure: `${c.name}: TTFT p99 ms`, direct: round(d.ttftP99), tollgate: round(g.ttftP99), added: round(g.ttftP99 - d.ttftP99), ratio: round(g.ttftP99 / d.ttftP99, 2), portkey: pk(p?.ttftP99, p?.failed, p?.firstError), floor: fl(f?.ttftP99, d.ttftP99) })
    rows.push({ lane: c.id, measure: `${c.name}: inter-chunk p50 ms (pace ${S.streaming.paceMs})`, direct: round(d.gapP50), tollgate: round(g.gapP50), added: round(g.gapP50 - d.gapP50), ratio: round(g.gapP50 / d.gapP50, 2), portkey: pk(p?.gapP50, p?.failed, p?.firstError), floor: fl(f?.gapP50, d.gapP50) })
    rows.push({ lane: c.id, measure: `${c.name}: inter-chunk p99 ms`, direct: round(d.gapP99), tollgate: round(g.gapP99), added: round(g.gapP99 - d.gapP99), ratio: round(g.gapP99 / d.gapP99, 2), portkey: pk(p?.gapP99, p?.failed, p?.firstError), floor: fl(f?.gapP99, d.gapP99) })
    rows.push({
      lane: c.id, measure: `${c.name}: streams failed / frames lost or out of order`, direct: `${d.failed} / ${d.framesLost}`, tollgate: `${g.failed} / ${g.framesLost}`,
      portkey: p ? `${p.failed} / ${p.framesLost}` : undefined, floor: f ? `${f.failed} / ${f.framesLost}` : undefined, target: '0 / 0', pass: g.failed === 0 && g.framesLost === 0,
    })
    log(`lane ${c.id}: ttft direct ${d.ttftP50.toFixed(3)} tollgate ${g.ttftP50.toFixed(3)}; failed ${g.failed}${g.firstError ? ` (${g.firstError})` : ''}${p ? `; portkey failed ${p.failed} ${p.firstError ?? ''}` : ''}`)
  }
}

// ---------------------------------------------------------------------------------------------- lane 3
interface Cannon { rps: number; p50: number; p99: number; errors: number; non2xx: number; total: number }

async function autocannon(req: Req, connections: number, seconds: number): Promise<Cannon> {
  const cli = join(ROOT, 'node_modules/autocannon/autocannon.js')
  const runtime = Bun.which('node') ?? 'bun'
  const headers = Object.entries(req.headers).flatMap(([k, v]) => ['-H', `${k}=${v}`])
  const out = await runChild([runtime, cli, '-j', '-c', String(connections), '-d', String(seconds), '-m', 'POST', ...headers, '-b', req.body, req.url], { timeoutMs: (seconds + 30) * 1000 })
  if (out.code !== 0) throw new Error(`autocannon exited ${out.code}: ${out.stderr.slice(-300)}`)
  const r = JSON.parse(out.stdout) as { requests: { average: number; total: number }; latency: { p50: number; p99: number }; errors: number; timeouts: number; non2xx: number }
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.timeouts, non2xx: r.non2xx, total: r.requests.total }
}

async function laneThroughput(t: Targets) {
  const reqs = chatReqs(t, M.small)
  const names = Object.keys(reqs)
  const sweep: Record<string, Record<number, Cannon>> = Object.fromEntries(names.map((n) => [n, {}]))
  if (S.throughput.warmupSeconds) for (const name of names) await autocannon(reqs[name]!, 8, S.throughput.warmupSeconds)
  for (const [i, c] of S.throughput.sweep.entries()) {
    const order = names.map((_, k) => names[(k + i) % names.length]!)
    for (const name of order) {
      sweep[name]![c] = await autocannon(reqs[name]!, c, S.throughput.seconds)
      log(`lane 3: ${name} c=${c}: ${sweep[name]![c]!.rps.toFixed(0)} rps, p99 ${sweep[name]![c]!.p99} ms, errors ${sweep[name]![c]!.errors}, non2xx ${sweep[name]![c]!.non2xx}`)
    }
  }
  const best = (name: string) => Math.max(0, ...Object.values(sweep[name]!).filter((r) => r.p99 < 10 && r.errors === 0 && r.non2xx === 0).map((r) => r.rps))
  const cell = (r: Cannon | undefined) => (r ? `${Math.round(r.rps)} rps, p99 ${r.p99} ms${r.errors || r.non2xx ? `, ${r.errors + r.non2xx} bad` : ''}` : undefined)
  for (const c of S.throughput.sweep) {
    const d = sweep.direct![c]!
    const g = sweep.tollgate![c]!
    rows.push({ lane: '3', measure: `chat passthrough, ${c} connections`, direct: cell(d), tollgate: cell(g), ratio: round(g.rps / d.rps, 2), portkey: cell(sweep.portkey?.[c]), floor: cell(sweep.floor?.[c]) })
  }
  const bd = best('direct')
  const bg = best('tollgate')
  const bp = sweep.portkey ? best('portkey') : undefined
  const bf = sweep.floor ? best('floor') : undefined
  raw.throughput = { seconds: S.throughput.seconds, sweep, bestRps: { direct: bd, tollgate: bg, portkey: bp, floor: bf } }
  const floorCell = bf === undefined ? undefined : `${Math.round(bf)} (${round(bf / bd, 2)}× direct)`
  rows.push({ lane: '3', measure: 'highest rps with p99 < 10 ms', direct: Math.round(bd), tollgate: Math.round(bg), ratio: round(bg / bd, 2), portkey: bp === undefined ? undefined : Math.round(bp), floor: floorCell, target: '≥ ½ direct', pass: bg >= bd / 2 })
  if (bp !== undefined) rows.push({ lane: '3', measure: 'highest rps with p99 < 10 ms vs Portkey', tollgate: Math.round(bg), portkey: Math.round(bp), ratio: round(bp ? bg / bp : NaN, 2), target: '≥ 3× Portkey', pass: bg >= 3 * bp })
}

// ---------------------------------------------------------------------------------------------- lane 4
async function laneManyStreams(t: Targets) {
  const { count, deltas, paceMs, rampMs, settleSeconds } = S.many
  const req = chatReqs(t, M.many, true).tollgate!
  const before = rssMb(t.gw.pid)
  const sampler = rssSampler(t.gw.pid, 100)
  let upstreamMaxOpen = 0
  const poll = setInterval(async () => {
    const stats = (await fetch(`${t.fake.url}/stats`).then((r) => r.json()).catch(() => ({ openStreams: 0 }))) as { openStreams: number }
    upstreamMaxOpen = Math.max(upstreamMaxOpen, stats.openStreams)
  }, 250)
  const streamSeconds = (deltas * paceMs) / 1000
  const timeoutMs = Math.round((rampMs / 1000 + streamSeconds * 3 + 30) * 1000)
  const out = await runChild(['bun', join(ROOT, 'bench/many-streams.ts'), JSON.stringify({ ...req, count, expected: deltas, rampMs, timeoutMs })], {
    env: { BUN_CONFIG_MAX_HTTP_REQUESTS: String(Math.max(256, count * 2)) },
    timeoutMs: timeoutMs + 20_000,
  })
  clearInterval(poll)
  const { peak } = sampler.stop()
  await Bun.sleep(settleSeconds * 1000)
  Bun.gc(true)
  const settled = rssMb(t.gw.pid)
  let result: Record<string, any>
  try {
    result = JSON.parse(out.stdout.trim().split('\n').at(-1) ?? '')
  } catch {
    result = { failed: count, framesLost: count * deltas, errors: { [`client exited ${out.code}`]: 1 }, stderr: out.stderr.slice(-500) }
  }
  raw.manyStreams = { count, deltas, paceMs, rampMs, rssBefore: before, rssPeak: peak, rssSettled: settled, settleSeconds, upstreamMaxOpen, client: result }
  rows.push({ lane: '4', measure: `${count} streams (${deltas} deltas / ${paceMs} ms): peak RSS MB`, tollgate: round(peak, 1), target: '≤ 250', pass: peak <= 250 })
  rows.push({ lane: '4', measure: `settled RSS MB (${settleSeconds} s after; ${round(before, 1)} before)`, tollgate: round(settled, 1) })
  rows.push({
    lane: '4', measure: 'streams failed / frames lost', tollgate: `${result.failed} / ${result.framesLost}`, target: '0 / 0', pass: result.failed === 0 && result.framesLost === 0,
  })
  rows.push({ lane: '4', measure: 'most upstream streams open at once (fake side) / client side', tollgate: `${upstreamMaxOpen} / ${result.maxOpen ?? '?'}` })
  if (result.failed) rows.push({ lane: '4', measure: `errors: ${JSON.stringify(result.errors).slice(0, 200)}` })
  log(`lane 4: peak ${peak.toFixed(1)} MB, settled ${settled.toFixed(1)} MB, upstream max open ${upstreamMaxOpen}, client ${JSON.stringify(result).slice(0, 300)}`)
}

// ---------------------------------------------------------------------------------------------- lane 5
async function laneMemory(t: Targets, idle: { rss: number; anon: number; file: number }) {
  const { steadySeconds, settleSeconds } = S.memory
  const req = chatReqs(t, M.small).tollgate!
  const sampler = rssSampler(t.gw.pid, 250)
  const load = await autocannon(req, 16, steadySeconds)
  const { samples } = sampler.stop()
  const steady = median(samples.slice(Math.floor(samples.length / 2)))
  log(`lane 5: steady ${steady.toFixed(1)} MB under ${load.rps.toFixed(0)} rps; waiting ${settleSeconds} s`)
  await Bun.sleep(settleSeconds * 1000)
  const after = rssMb(t.gw.pid)
  raw.memory = { idle, steady, steadyRps: load.rps, steadySeconds, after, settleSeconds, samples }
  const how = t.gw.how.split(' (')[0]
  rows.push({ lane: '5', measure: `idle RSS MB (${how}; ${round(idle.anon, 1)} anonymous + ${round(idle.file, 1)} file-backed)`, tollgate: round(idle.rss, 1), target: '≤ 60', pass: idle.rss <= 60 })
  rows.push({ lane: '5', measure: `RSS MB under steady load (16 connections, ${Math.round(load.rps)} rps, ${steadySeconds} s)`, tollgate: round(steady, 1) })
  rows.push({ lane: '5', measure: `RSS MB ${settleSeconds} s after load stops`, tollgate: round(after, 1), ratio: round(after / steady, 2), target: '≤ 1.2× steady', pass: after <= steady * 1.2 })
}

// ---------------------------------------------------------------------------------------------- output
function machine() {
  const cpu = cpus()[0]?.model ?? 'unknown'
  const git = (args: string[]) => Bun.spawnSync(['git', ...args], { cwd: ROOT }).stdout.toString().trim()
  return {
    nproc: cpus().length,
    memGb: round(totalmem() / 1024 ** 3, 1),
    cpu,
    bun: Bun.version,
    commit: git(['rev-parse', '--short', 'HEAD']),
    dirty: git(['status', '--porcelain', '--untracked-files=no', '--', 'src']).length > 0,
  }
}

function table(): string {
  const fmt = (v: unknown) => (v === undefined || v === null ? '' : typeof v === 'boolean' ? (v ? 'pass' : 'FAIL') : String(v))
  const head = ['lane', 'measure', 'direct', 'tollgate', 'added', 'ratio', 'portkey', 'floor (+added)', 'target', 'pass']
  const lines = rows.map((r) => [r.lane, r.measure, r.direct, r.tollgate, r.added, r.ratio, r.portkey, r.floor, r.target, r.pass].map(fmt))
  return [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...lines.map((l) => `| ${l.join(' | ')} |`)].join('\n')
}

// ---------------------------------------------------------------------------------------------- main
async function main() {
  const started = new Date()
  const work = tempDir()
  log(`mode ${quick ? 'quick' : 'full'}, lanes ${[...lanes].join(',')}, gateway ${gatewayMode}`)
  const gwCmd = await resolveGatewayCommand(gatewayMode, work)
  if (gwCmd.note) notes.push(gwCmd.note)
  const fake = await startFake()
  // a binary starts as it does from disk, not from the page cache of a file written seconds ago (lane 5)
  if (gwCmd.cmd.length === 1 && existsSync(gwCmd.cmd[0]!) && !dropFromPageCache(gwCmd.cmd[0]!)) notes.push('could not drop the binary from the page cache: lane 5 counts what that leaves mapped')
  const gw = await startGateway(gwCmd.cmd, gwCmd.how, fake, {
    openai: [M.small, M.stream, M.many, M.warm],
    chatOnly: [M.chatOnly],
    anthropic: [M.anthropic],
  })
  log(`fake ${fake.url}, tollgate ${gw.url} (${gw.how}, pid ${gw.pid})`)
  await Bun.sleep(S.memory.idleWaitMs)
  const idle = { rss: rssMb(gw.pid), ...rssPartsMb(gw.pid) }
  const t: Targets = { fake, gw }
  if (withPortkey && (lanes.has('1') || lanes.has('2') || lanes.has('3'))) {
    try {
      t.portkey = await startPortkey()
      log(`portkey ${t.portkey.url} (pid ${t.portkey.pid})`)
    } catch (error) {
      t.portkeyError = String((error as Error).message ?? error).split('\n')[0]
      notes.push(`Portkey did not start: ${t.portkeyError}`)
      log(`portkey did not start: ${t.portkeyError}`)
    }
  } else if (!withPortkey) notes.push('Portkey left out (--no-portkey)')
  if (withFloor && (lanes.has('1') || lanes.has('2') || lanes.has('3'))) {
    t.floor = await startFloor(fake)
    log(`floor proxy ${t.floor.url}`)
  }
  try {
    if (lanes.has('1')) await laneOverhead(t)
    if (lanes.has('2')) await laneStreaming(t)
    if (lanes.has('3')) await laneThroughput(t)
    if (t.portkey) raw.portkeyRss = rssMb(t.portkey.pid)
    await t.portkey?.child.stop()
    t.portkey = undefined
    await t.floor?.child.stop()
    t.floor = undefined
    if (lanes.has('5')) await laneMemory(t, idle)
    if (lanes.has('4')) await laneManyStreams(t)
  } finally {
    await t.portkey?.child.stop()
    await t.floor?.child.stop()
    await gw.stop()
    await fake.child.stop()
  }
  const m = machine()
  const result = {
    date: started.toISOString(),
    seconds: round((Date.now() - started.getTime()) / 1000, 1),
    mode: quick ? 'quick' : 'full',
    machine: m,
    gateway: gw.how,
    settings: S,
    notes,
    rows,
    raw,
  }
  const header = `${started.toISOString().slice(0, 16).replace('T', ' ')} UTC · commit ${m.commit}${m.dirty ? ' (src modified)' : ''} · ${m.nproc} cores, ${m.memGb} GB, ${m.cpu} · Bun ${m.bun} · Tollgate: ${gw.how} · ${result.mode} run, ${result.seconds} s`
  const text = `${header}\n\n${table()}${notes.length ? `\n\n${notes.map((n) => `- ${n}`).join('\n')}` : ''}`
  console.log(text)
  const out = option('out') ?? join(ROOT, 'bench/results', `${started.toISOString().replace(/[:.]/g, '-')}.json`)
  mkdirSync(join(out, '..'), { recursive: true })
  writeFileSync(out, JSON.stringify(result, null, 2))
  log(`wrote ${out}`)
  if (flag('readme')) {
    const path = join(ROOT, 'bench/README.md')
    const readme = readFileSync(path, 'utf8')
    const start = '<!-- results:start -->'
    const end = '<!-- results:end -->'
    const i = readme.indexOf(start)
    const j = readme.indexOf(end)
    if (i < 0 || j < 0) throw new Error('bench/README.md has no results markers')
    writeFileSync(path, readme.slice(0, i + start.length) + `\n${text}\n` + readme.slice(j))
    log('updated bench/README.md')
  }
}

await main()
process.exit(0)
