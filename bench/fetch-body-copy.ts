/**
 * Does Bun's `fetch` copy a request body it is handed? A 256 MB body, as a Uint8Array and as a Blob made from one
 * (whose bytes are then let go of, as the relay does), is sent to a local server that does not read it yet; RSS is
 * taken before, once the body is made, and while fetch holds it; the server checks every byte. A copy shows as
 * +256 MB: fetch copies a Uint8Array (+261 MB on 2026-11-28) and not a Blob (whose RSS even fell while fetch held
 * it). This is why a large body goes to fetch as a Blob (relay/body/request-body.ts `sendable`, relay/chat/upstream-body.ts).
 * (A first version of this check let Bun's 128 MB request limit refuse the body, and saw no copy: read `received`.)
 *
 *   bun bench/fetch-body-copy.ts
 */
import { readFileSync } from 'node:fs'

const rssMb = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))![1]) / 1024
const SIZE = 256 << 20

async function held(kind: 'Uint8Array' | 'Blob'): Promise<string> {
  let release!: () => void
  const gate = new Promise<void>((resolve) => (release = resolve))
  let received = 0
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    maxRequestBodySize: 2 * SIZE,
    async fetch(req) {
      await gate
      const got = await req.bytes()
      received = got.findIndex((b) => b !== 7) === -1 ? got.byteLength : -1 // every byte as sent
      return new Response('ok')
    },
  })
  const bytes = new Uint8Array(SIZE).fill(7)
  const before = rssMb()
  const body = kind === 'Blob' ? new Blob([bytes]) : bytes
  if (kind === 'Blob') bytes.buffer.transfer(0) // the relay's release: the Blob holds its own copy
  const made = rssMb()
  const answer = fetch(`http://127.0.0.1:${server.port}/`, { method: 'POST', body })
  await Bun.sleep(300) // connected, the first bytes in the socket, the server waiting
  const during = rssMb()
  release()
  await (await answer).text()
  server.stop(true)
  if (received !== SIZE) throw new Error(`the server did not receive the ${SIZE} bytes sent (${received})`)
  return `| ${kind} | ${before.toFixed(0)} | ${(made - before).toFixed(0)} | ${(during - before).toFixed(0)} |`
}

// each kind in a fresh process, so one's leftovers do not move the other's RSS
const kind = Bun.argv[2]
if (kind === 'Uint8Array' || kind === 'Blob') console.log(await held(kind))
else {
  console.log(`a ${SIZE >> 20} MB body, RSS in MB:\n| body | before | + once made (a Blob: its bytes let go of) | + while fetch holds it |\n| --- | --- | --- | --- |`)
  for (const each of ['Uint8Array', 'Blob']) {
    const child = Bun.spawnSync(['bun', import.meta.path, each], { stderr: 'inherit' })
    if (!child.success) throw new Error(`${each}: exit ${child.exitCode}`)
    process.stdout.write(child.stdout)
  }
}
