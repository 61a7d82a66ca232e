/**
 * The memory floor of a burst of large bodies (issue #18): a bare Bun server that reads N concurrent 4 MB request
 * bodies (`bytes()`, `arrayBuffer()` or `blob()`) and holds every one until all have arrived, its peak RSS above
 * idle. Whatever a gateway does, it must have read each body before it can check and send it; this is what reading
 * and holding them costs Bun itself (the bodies are N × 4 MB).
 *
 *   bun bench/hold-floor.ts [--concurrent=50] [--rounds=3]
 */
import { readFileSync } from 'node:fs'
import { spawnChild } from './lib'

const flag = (name: string) => Bun.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1]
const BODY = 4 << 20

if (Bun.argv[2] === '--serve') serve(Bun.argv[3]!, Number(Bun.argv[4]))
else await drive(Number(flag('concurrent') ?? 50), Number(flag('rounds') ?? 3))

function rssMb(): number {
  return Number(/VmRSS:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))![1]) / 1024
}

/** The server: GET starts a round (after a full collection, idle measured); each POST holds its body until all N are in. */
function serve(read: string, n: number) {
  let arrived = 0
  let idle = 0
  let peak = 0
  let sampler: Timer | undefined
  let allIn = Promise.withResolvers<void>()
  let held: unknown[] = []
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    idleTimeout: 0,
    async fetch(req) {
      if (req.method === 'GET') {
        held = []
        Bun.gc(true)
        await Bun.sleep(100)
        idle = peak = rssMb()
        arrived = 0
        allIn = Promise.withResolvers<void>()
        sampler = setInterval(() => (peak = Math.max(peak, rssMb())), 2)
        return new Response('ready')
      }
      held.push(read === 'blob' ? await req.blob() : read === 'arrayBuffer' ? await req.arrayBuffer() : await req.bytes())
      peak = Math.max(peak, rssMb())
      if (++arrived === n) {
        clearInterval(sampler)
        allIn.resolve()
      }
      await allIn.promise
      return new Response((peak - idle).toFixed(1))
    },
  })
  console.log(JSON.stringify({ port: server.port }))
}

async function drive(n: number, rounds: number) {
  const payload = new Uint8Array(BODY).fill(0x61)
  for (const read of ['bytes', 'arrayBuffer', 'blob']) {
    const child = await spawnChild(['bun', import.meta.path, '--serve', read, String(n)], { name: read, isReady: (line) => line.startsWith('{"port"') })
    const url = `http://127.0.0.1:${(JSON.parse(child.readyLine) as { port: number }).port}/`
    const peaks: string[] = []
    for (let r = 0; r < rounds; r++) {
      await (await fetch(url)).text()
      const answers = await Promise.all(Array.from({ length: n }, () => fetch(url, { method: 'POST', body: payload }).then((res) => res.text())))
      peaks.push(answers[0]!)
    }
    console.log(`${n} × 4 MB read with ${read}() and held: peak RSS +${peaks.join(' / ')} MB above idle (the bodies: ${(n * 4).toFixed(0)} MB)`)
    await child.stop()
  }
  process.exit(0)
}
