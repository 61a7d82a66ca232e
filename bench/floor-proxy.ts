/**
 * The floor: the least a Bun gateway can do. A bare `Bun.serve` that forwards each POST's body to the fake
 * upstream on the same path with `fetch` and streams the answer back: no auth, routing, parsing, metering
 * or logging. Its added latency is what Bun's HTTP server and client cost on this machine, so the table
 * can show how much of Tollgate's added time is Tollgate's own.
 *
 *   bun bench/floor-proxy.ts --upstream http://127.0.0.1:<fake> [--port 0]
 *
 * Prints one JSON line `{"port":N}` on stdout once it listens.
 */
const arg = (name: string, fallback: string) => {
  const i = Bun.argv.indexOf(`--${name}`)
  return i > 0 ? Bun.argv[i + 1]! : fallback
}
const upstream = arg('upstream', '')
if (!upstream) throw new Error('--upstream is required')

const floor = Bun.serve({
  hostname: '127.0.0.1',
  port: Number(arg('port', '0')),
  idleTimeout: 0,
  async fetch(req) {
    const path = req.url.slice(req.url.indexOf('/', 8))
    const res = await fetch(upstream + path, {
      method: req.method,
      headers: { 'content-type': 'application/json', authorization: req.headers.get('authorization') ?? '' },
      body: req.method === 'POST' ? await req.arrayBuffer() : undefined,
    })
    return new Response(res.body, { status: res.status, headers: { 'content-type': res.headers.get('content-type') ?? 'application/json' } })
  },
})
console.log(JSON.stringify({ port: floor.port }))
