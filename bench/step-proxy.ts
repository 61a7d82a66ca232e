/**
 * A bare proxy that does one more of the steps Tollgate must do for a large passthrough body, so
 * `passthrough-steps.ts` can show what each step adds over the floor (floor-proxy.ts):
 *
 *   floor      `arrayBuffer()` → fetch (fetch copies the bytes)
 *   blob       `bytes()` → one Blob, the bytes detached → fetch (what Tollgate sends from 1 MB)
 *   scan       as blob, after the structure scan Tollgate runs on every chat body over 32 KB (relay/body/json-scan.ts)
 *   elysia     as scan, served by an Elysia route (the framework Tollgate runs on)
 *
 *   bun bench/step-proxy.ts <step> --upstream http://127.0.0.1:<fake>
 *
 * Prints one JSON line `{"port":N}` on stdout once it listens.
 */
import { Elysia } from 'elysia'
import { scanJson } from '../src/relay/body/json-scan'

const step = Bun.argv[2] ?? 'floor'
const at = Bun.argv.indexOf('--upstream')
const upstream = at > 0 ? Bun.argv[at + 1]! : ''
if (!upstream || !['floor', 'blob', 'scan', 'elysia'].includes(step)) throw new Error('usage: bun bench/step-proxy.ts floor|blob|scan|elysia --upstream <url>')

async function forward(req: Request): Promise<Response> {
  const path = req.url.slice(req.url.indexOf('/', 8))
  let body: ArrayBuffer | Blob
  if (step === 'floor') body = await req.arrayBuffer()
  else {
    const bytes = await req.bytes()
    if (step !== 'blob' && scanJson(bytes).problem) return new Response('{"error":"bad json"}', { status: 400 })
    body = new Blob([bytes])
    bytes.buffer.transfer(0)
  }
  const headers = { 'content-type': 'application/json', 'anthropic-version': '2023-06-01', 'x-api-key': req.headers.get('x-api-key') ?? '' }
  const res = await fetch(upstream + path, { method: 'POST', headers, body })
  return new Response(res.body, { status: res.status, headers: { 'content-type': res.headers.get('content-type') ?? 'application/json' } })
}

if (step === 'elysia') {
  const app = new Elysia().post('/v1/messages', ({ request }) => forward(request), { parse: 'none' }).listen({ hostname: '127.0.0.1', port: 0, idleTimeout: 0 })
  console.log(JSON.stringify({ port: app.server!.port }))
} else {
  const server = Bun.serve({ hostname: '127.0.0.1', port: 0, idleTimeout: 0, fetch: forward })
  console.log(JSON.stringify({ port: server.port }))
}
