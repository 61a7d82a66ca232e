/**
 * Micro-benchmark for issue #13.4: what the body limit costs a request that reads its body (the relay reads every
 * body as text). "before" is the hook as it was (Content-Length only, then `request.text()`); "after" is
 * `enforceBodyLimit` from plugins/request-context, then `request.text()`; "control" is "before" again, so the
 * spread between identical code shows the noise. Not part of `bun test`:
 *
 *   bun tests/hardening/bench-body-read.ts [--before=<a checkout of the code before, e.g. git archive of HEAD>]
 *
 * Measures, each interleaved over several rounds so drift hits every side alike:
 * 1. in process: build a Request, run the check, read the text (CPU only; the relay's hot path minus the network);
 * 2. over loopback HTTP: a Bun server per variant, a 1 KiB JSON body, with Content-Length and chunked;
 * 3. with --before: the whole relay, this tree's app against the other tree's, each with its fake upstream:
 *    a Claude Code request (23 KB, passthrough to Anthropic) and a small chat request, Content-Length and chunked;
 *    `x-tollgate-overhead-ms` (the gateway's own time, wall clock) and CPU per request.
 * CPU time of this process is reported rather than wall time: on a shared 2-core machine other processes move
 * wall times by ±25% between identical runs (compare "control" with "before").
 */
import { PayloadTooLargeError } from '../../src/errors'
import { enforceBodyLimit } from '../../src/plugins/request-context'

const LIMIT = 32 * 1024 * 1024
const body = JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'x'.repeat(1000) }] })

function before(request: Request): void {
  const length = Number(request.headers.get('content-length') ?? 0)
  if (length > LIMIT) throw new PayloadTooLargeError(LIMIT)
}
const after = (request: Request) => enforceBodyLimit(request, LIMIT)
const control = (request: Request) => before(request)
const variants = { before, after, control }

/** CPU time (user + system, this process) per unit of work, in µs: less disturbed than wall time by other processes. */
async function cpuPer(n: number, work: () => Promise<void>): Promise<number> {
  const before = process.cpuUsage()
  await work()
  const used = process.cpuUsage(before)
  return (used.user + used.system) / n
}

async function inProcess(check: (r: Request) => void, n: number): Promise<number> {
  const headers = { 'content-type': 'application/json', 'content-length': String(body.length) }
  return 1000 * (await cpuPer(n, async () => {
    for (let i = 0; i < n; i++) {
      const request = new Request('http://127.0.0.1/v1/chat/completions', { method: 'POST', headers, body })
      check(request)
      if ((await request.text()).length !== body.length) throw new Error('short read')
    }
  }))
}

function serve(check: (r: Request) => void) {
  return Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    maxRequestBodySize: Number.MAX_SAFE_INTEGER,
    async fetch(request) {
      check(request)
      return new Response(String((await request.text()).length))
    },
  })
}

/** CPU µs per request of the whole process (client and server alike; only the server differs between variants). */
async function overHttp(url: string, n: number, chunked: boolean, concurrency = 16): Promise<number> {
  const bytes = new TextEncoder().encode(body)
  let left = n
  return cpuPer(n, () => Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (left-- > 0) {
        const payload = chunked ? new ReadableStream({ start: (c) => (c.enqueue(bytes), c.close()) }) : body
        const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: payload })
        if ((await res.text()) !== String(body.length)) throw new Error('bad answer')
      }
    }),
  ).then(() => {}))
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
const ROUNDS = 7

const cpu: Record<string, number[]> = { before: [], after: [], control: [] }
for (let round = 0; round < ROUNDS; round++) {
  const order = round % 2 ? Object.entries(variants).reverse() : Object.entries(variants)
  for (const [name, check] of order) cpu[name]!.push(await inProcess(check, 50_000))
}
console.log(`in process, CPU ns per request (median of ${ROUNDS}): before ${median(cpu.before!).toFixed(0)}, after ${median(cpu.after!).toFixed(0)}, control ${median(cpu.control!).toFixed(0)}, after/before ${(median(cpu.after!) / median(cpu.before!)).toFixed(3)}`)

const servers = { before: serve(before), after: serve(after), control: serve(control) }
for (const chunked of [false, true]) {
  const rps: Record<string, number[]> = { before: [], after: [], control: [] }
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 ? (['after', 'control', 'before'] as const) : (['before', 'control', 'after'] as const)
    for (const name of order) rps[name]!.push(await overHttp(`http://127.0.0.1:${servers[name].port}/`, 5_000, chunked))
  }
  console.log(
    `loopback HTTP, ${chunked ? 'chunked' : 'Content-Length'}, CPU µs per request (median of ${ROUNDS}): before ${median(rps.before!).toFixed(1)}, after ${median(rps.after!).toFixed(1)}, control ${median(rps.control!).toFixed(1)}, after/before ${(median(rps.after!) / median(rps.before!)).toFixed(3)}`,
  )
}
for (const server of Object.values(servers)) server.stop(true)

const beforeDir = process.argv.find((a) => a.startsWith('--before='))?.slice('--before='.length)
if (beforeDir) await relayAb(beforeDir)

async function relayAb(dir: string) {
  type Env = { app: { url: string; fetch(path: string, init?: RequestInit): Promise<Response> }; key: string; upstream: { reset(): void }; addChannel(i: { type: number }): Promise<number>; stop(): Promise<void> }
  const load = async (root: string) => (await import(`${root}/tests/helpers/relay-env.ts`)).startRelayEnv() as Promise<Env>
  const envs = { before: await load(dir), after: await load(new URL('../..', import.meta.url).pathname.replace(/\/$/, '')) }
  for (const env of Object.values(envs)) {
    await env.addChannel({ type: 1 })
    await env.addChannel({ type: 14 })
  }
  const fixture = JSON.parse(await Bun.file(new URL('../fixtures/clients/claude-code-first-request.json', import.meta.url)).text())
  const cases = [
    { name: 'Claude Code 23 KB → Anthropic', path: '/v1/messages', headers: { 'anthropic-version': '2023-06-01' }, body: JSON.stringify({ ...fixture.body, model: 'claude-sonnet-4-5', stream: false }) },
    { name: 'small chat → OpenAI', path: '/v1/chat/completions', headers: {}, body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }) },
  ]
  for (const c of cases) {
    for (const chunked of [false, true]) {
      const overhead: Record<string, number[]> = { before: [], after: [] }
      const rps: Record<string, number[]> = { before: [], after: [] }
      const bytes = new TextEncoder().encode(c.body)
      for (let round = 0; round < ROUNDS + 1; round++) {
        const order = round % 2 ? (['after', 'before'] as const) : (['before', 'after'] as const)
        for (const name of order) {
          const env = envs[name]
          const samples: number[] = []
          let left = 1500
          const cpu = process.cpuUsage()
          await Promise.all(
            Array.from({ length: 8 }, async () => {
              while (left-- > 0) {
                const res = await env.app.fetch(c.path, {
                  method: 'POST',
                  headers: { "content-type": "application/json", authorization: `Bearer ${env.key}`, ...(c.headers as Record<string, string>) },
                  body: chunked ? new ReadableStream({ start: (ctl) => (ctl.enqueue(bytes), ctl.close()) }) : c.body,
                })
                await res.arrayBuffer()
                if (res.status !== 200) throw new Error(`${name} ${c.name}: ${res.status}`)
                samples.push(Number(res.headers.get('x-tollgate-overhead-ms')))
              }
            }),
          )
          const used = process.cpuUsage(cpu)
          env.upstream.reset()
          if (round === 0) continue // warm-up
          rps[name]!.push((used.user + used.system) / 1500)
          overhead[name]!.push(median(samples))
        }
      }
      const o = { before: median(overhead.before!), after: median(overhead.after!) }
      const r = { before: median(rps.before!), after: median(rps.after!) }
      console.log(
        `relay, ${c.name}, ${chunked ? 'chunked' : 'Content-Length'} (median of ${ROUNDS} rounds of 1,500, 8 at a time): ` +
          `overhead p50 ms before ${o.before.toFixed(3)}, after ${o.after.toFixed(3)} (after/before ${(o.after / o.before).toFixed(3)}); ` +
          `CPU µs per request (gateway, client and fake upstream) before ${r.before.toFixed(0)}, after ${r.after.toFixed(0)} (after/before ${(r.after / r.before).toFixed(3)})`,
      )
    }
  }
  for (const env of Object.values(envs)) await env.stop()
}
