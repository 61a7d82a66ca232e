/**
 * Slow readers: `--clients` (200) streams whose upstream sends `--mb` (20) MB as fast as it can while the
 * client reads nothing for `--pause` (5) seconds, then reads everything. Memory per stream must stay bounded
 * (backpressure from the client's socket back to the upstream), not grow to clients × MB.
 *
 *   bun bench/slow-readers.ts [--clients 200] [--mb 20] [--pause 5] [--case chat|messages]
 *                             [--gateway source|build|binary|<path>] [--target tollgate|floor|js-floor]
 *
 * Each piece is its own process (fake upstream, Tollgate from source by default); the clients here are raw
 * TCP sockets paused after the response headers, so nothing on our side drains the gateway. `chat` is chat
 * passthrough, `messages` is Anthropic → chat conversion. `--target floor` measures a bare Bun.serve + fetch proxy
 * instead (the upstream body handed to the Response), `js-floor` the same reading the body in JavaScript: what
 * Bun itself holds per stream. Prints one JSON line: the gateway's RSS before, at its peak from the opening of the
 * streams to the end of the pause, at the end of the pause, at its peak while the clients drain, and after; the
 * bytes the clients had received when the pause ended, and how many streams then completed whole.
 */
import { connect, type Socket } from 'node:net'
import { rssMb, rssSampler, spawnChild } from './lib'
import { resolveGatewayCommand, startFake, startGateway, tempDir } from './targets'

const arg = (name: string, fallback: string) => {
  const i = Bun.argv.indexOf(`--${name}`)
  return i > 0 ? Bun.argv[i + 1]! : fallback
}

// `--serve-floor <upstream> native|js`: this file as the floor to compare with, a bare Bun proxy (the child side)
if (Bun.argv.includes('--serve-floor')) {
  const upstream = arg('serve-floor', '')
  const js = Bun.argv.includes('js')
  const server = Bun.serve({
    hostname: '127.0.0.1', port: 0, idleTimeout: 0,
    async fetch(req) {
      const path = req.url.slice(req.url.indexOf('/', 8))
      const res = await fetch(upstream + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: await req.arrayBuffer() })
      if (!js) return new Response(res.body, { headers: { 'content-type': 'text/event-stream' } })
      // what a relay that reads the upstream in JavaScript does at the least: one read per pull, passed on as it is
      const reader = res.body!.getReader()
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          const { done, value } = await reader.read()
          if (done) controller.close()
          else controller.enqueue(value)
        },
        cancel: () => reader.cancel(),
      })
      return new Response(body, { headers: { 'content-type': 'text/event-stream' } })
    },
  })
  console.log(JSON.stringify({ port: server.port }))
  await new Promise(() => {})
}
const clients = Number(arg('clients', '200'))
const mb = Number(arg('mb', '20'))
const pauseSeconds = Number(arg('pause', '5'))
const wire = arg('case', 'chat') as 'chat' | 'messages'

// chat frames of delta `w<i> ` are ~170 bytes: enough deltas for `mb` MB per stream
const deltas = Math.ceil((mb * 1024 * 1024) / 170)
const model = `bench-d${deltas}-p0`
const fake = await startFake()
const target = arg('target', 'tollgate')
let gateway: { url: string; pid: number; how: string; key: string; stop(): Promise<void> }
if (target === 'tollgate') {
  const { cmd, how } = await resolveGatewayCommand(arg('gateway', 'source'), tempDir())
  gateway = await startGateway(cmd, how, fake, { openai: [model], chatOnly: [] })
} else {
  const child = await spawnChild(['bun', import.meta.path, '--serve-floor', fake.url, target === 'js-floor' ? 'js' : 'native'], { name: 'floor', isReady: (line) => line.startsWith('{"port"') })
  const floorPort = (JSON.parse(child.readyLine) as { port: number }).port
  gateway = { url: `http://127.0.0.1:${floorPort}`, pid: child.pid, how: `${target} (bare Bun.serve + fetch)`, key: 'none', stop: () => child.stop() }
}
const { port } = new URL(gateway.url)

const body = wire === 'chat'
  ? JSON.stringify({ model, stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: 'hi' }] })
  : JSON.stringify({ model, max_tokens: 100, stream: true, messages: [{ role: 'user', content: 'hi' }] })
const path = wire === 'chat' ? '/v1/chat/completions' : '/v1/messages'
const request =
  `POST ${path} HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\nauthorization: Bearer ${gateway.key}\r\nanthropic-version: 2023-06-01\r\n` +
  `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`

interface Client {
  socket: Socket
  received: number
  tail: string
  done: Promise<void>
}

// warm up: one small stream, so the figures do not count first-request costs (tokenizer, JIT)
await fetch(`${gateway.url}${path}`, { method: "POST", headers: { authorization: `Bearer ${gateway.key}`, "anthropic-version": "2023-06-01", "content-type": "application/json" }, body }).then((r) => r.text())
Bun.gc(true)
await Bun.sleep(1500)
const before = rssMb(gateway.pid)

const open = (): Client => {
  const client = { received: 0, tail: '' } as Client
  const ended = Promise.withResolvers<void>()
  client.done = ended.promise
  client.socket = connect(Number(port), '127.0.0.1', () => client.socket.write(request))
  client.socket.on('data', (chunk: Buffer) => {
    if (client.received === 0 && !draining) client.socket.pause() // headers (and whatever came with them), then nothing
    client.received += chunk.byteLength
    client.tail = (client.tail + chunk.toString('latin1')).slice(-200)
  })
  client.socket.on('end', () => ended.resolve())
  client.socket.on('close', () => ended.resolve())
  client.socket.on('error', () => ended.resolve())
  return client
}

let draining = false
const sampler = rssSampler(gateway.pid, 100)
const started = performance.now()
const all = Array.from({ length: clients }, open)
// the pause counts from when every stream has its headers (opening 200 streams that each fill their buffers takes a while)
const openDeadline = performance.now() + 60_000
while (all.some((c) => c.received === 0) && performance.now() < openDeadline) await Bun.sleep(50)
const openSeconds = (performance.now() - started) / 1000
await Bun.sleep(pauseSeconds * 1000)
const { peak } = sampler.stop()
const atPauseEnd = rssMb(gateway.pid)
const receivedAtPause = all.reduce((sum, c) => sum + c.received, 0)
draining = true
const answered = all.filter((c) => c.received > 0).length
for (const c of all) c.socket.resume()
const drain = rssSampler(gateway.pid, 100)
await Promise.all(all.map((c) => c.done))
const { peak: drainPeak } = drain.stop()
const seconds = (performance.now() - started) / 1000
const complete = all.filter((c) => c.tail.includes(wire === 'chat' ? 'data: [DONE]' : 'event: message_stop')).length
Bun.gc(true)
await Bun.sleep(2000)
const after = rssMb(gateway.pid)
const streamBytes = all.reduce((sum, c) => sum + c.received, 0) / clients

console.log(JSON.stringify({
  gateway: gateway.how,
  case: wire,
  clients,
  mbPerStream: Number((streamBytes / 1024 / 1024).toFixed(1)),
  pauseSeconds,
  rssBeforeMb: Number(before.toFixed(1)),
  rssPeakDuringPauseMb: Number(peak.toFixed(1)),
  growthDuringPauseMb: Number((peak - before).toFixed(1)),
  growthPerStreamKb: Math.round(((peak - before) * 1024) / clients),
  rssAtPauseEndMb: Number(atPauseEnd.toFixed(1)),
  answeredDuringPause: answered,
  secondsToOpenAll: Number(openSeconds.toFixed(1)),
  // Bun.serve (idleTimeout 30 s as Elysia sets it) ends a response whose client has read nothing for 30 s
  ...(openSeconds + pauseSeconds > 28 ? { warning: 'some clients read nothing for 30 s or more: the server idle timeout ends those streams' } : {}),
  clientsReceivedAtPauseMb: Number((receivedAtPause / 1024 / 1024).toFixed(1)),
  rssPeakWhileDrainingMb: Number(drainPeak.toFixed(1)),
  rssAfterMb: Number(after.toFixed(1)),
  completeStreams: complete,
  incompleteTails: all.filter((c) => !c.tail.includes(wire === 'chat' ? 'data: [DONE]' : 'event: message_stop')).slice(0, 2).map((c) => `${c.received} bytes, ends: ${c.tail.slice(-160)}`),
  seconds: Number(seconds.toFixed(1)),
}))
await gateway.stop()
await fake.child.stop()
