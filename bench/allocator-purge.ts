/**
 * What Bun's allocator returning freed pages at once costs a large passthrough (issue #18): the same grown Claude
 * Code turn (1 MB, 4 MB) through one Tollgate per MIMALLOC_PURGE_DELAY value (ms), interleaved round by round,
 * against direct. Tollgate sets 1000 when the operator sets nothing (src/launch/start-env.ts); 0 returns pages at
 * once, 10 is mimalloc 2's default (v3's is 1000). Prints each one's added p50 over direct and its minor page faults per request (/proc/<pid>/stat).
 *
 *   bun bench/allocator-purge.ts [--delays=0,10,1000] [--gateway=source|build|binary|<path>]
 */
import { readFileSync } from 'node:fs'
import { agentBody } from '../tests/helpers/agent-body'
import { median } from './lib'
import { UPSTREAM_KEY, resolveGatewayCommand, startFake, startGateway, tempDir, type Gateway } from './targets'

const flag = (name: string) => Bun.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1]
const delays = (flag('delays') ?? '0,10,1000').split(',')
const MODEL = 'claude-bench-d16'
const fake = await startFake()
const command = await resolveGatewayCommand(flag('gateway') ?? 'source', tempDir())
const gateways = new Map<string, Gateway>()
for (const delay of delays) {
  gateways.set(`${delay} ms`, await startGateway(command.cmd, command.how, fake, { openai: ['bench-unused'], chatOnly: ['bench-unused-2'], anthropic: [MODEL] }, { MIMALLOC_PURGE_DELAY: delay }))
}
const targets = new Map<string, { url: string; key: string; pid?: number }>([['direct', { url: fake.url, key: UPSTREAM_KEY }]])
for (const [name, gateway] of gateways) targets.set(name, { url: gateway.url, key: gateway.key, pid: gateway.pid })
const names = [...targets.keys()]

async function once(name: string, body: string): Promise<number> {
  const { url, key } = targets.get(name)!
  const started = performance.now()
  const res = await fetch(`${url}/v1/messages`, { method: 'POST', headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01', 'x-api-key': key }, body })
  await res.arrayBuffer()
  if (!res.ok) throw new Error(`${name}: ${res.status}`)
  return performance.now() - started
}
const minorFaults = (pid: number) => Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[7])

const small = JSON.stringify({ ...agentBody(35_000), model: MODEL, stream: false })
for (const name of names) for (let i = 0; i < 1500; i++) await once(name, small)
console.log(`Tollgate per MIMALLOC_PURGE_DELAY (${command.how}): added p50 ms over direct, minor page faults per request`)
for (const [label, size, perRound] of [['1 MB', 1 << 20, 60], ['4 MB', 4 << 20, 20]] as const) {
  const body = JSON.stringify({ ...agentBody(size), model: MODEL, stream: false })
  const seen = new Map(names.map((n) => [n, [] as number[]]))
  const faultsBefore = new Map([...gateways].map(([n, g]) => [n, minorFaults(g.pid)]))
  for (let round = 0; round < 4; round++) {
    const order = names.map((_, i) => names[(i + round) % names.length]!)
    for (let i = 0; i < perRound; i++) for (const name of order) seen.get(name)!.push(await once(name, body))
  }
  const direct = median(seen.get('direct')!)
  const cells = [...gateways].map(([n, g]) => `${n}: +${(median(seen.get(n)!) - direct).toFixed(2)} ms, ${((minorFaults(g.pid) - faultsBefore.get(n)!) / (4 * perRound)).toFixed(0)} faults`)
  console.log(`${label} (direct ${direct.toFixed(2)} ms)  ${cells.join(' | ')}`)
}
for (const gateway of gateways.values()) await gateway.stop()
await fake.child.stop()
process.exit(0)
