/**
 * How many garbage collections a large passthrough costs, and how long they take (issue #18): the same grown
 * Claude Code turn through Tollgate and through the floor, each run with JavaScriptCore's GC log on
 * (`BUN_JSC_logGC=1`), counted per request from that log.
 *
 *   bun bench/gc-per-request.ts [--gateway=build|binary|source|<path>] [--sizes=35k,1m,4m] [--n=300]
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { agentBody } from '../tests/helpers/agent-body'
import { sequential } from './clients'
import { AGENT_SIZES, median } from './lib'
import { FLOOR_ENV, UPSTREAM_KEY, resolveGatewayCommand, startFake, startFloor, startGateway, tempDir } from './targets'

const flag = (name: string) => Bun.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1]
const n = Number(flag('n') ?? 300)
const sizes = (flag('sizes') ?? '35k,1m,4m').split(',')
const MODEL = 'claude-bench-d16'
const dir = tempDir({ keep: Bun.argv.includes('--keep') })
const gwLog = join(dir, 'gateway-gc.log')
const floorLog = join(dir, 'floor-gc.log')
writeFileSync(gwLog, '')
writeFileSync(floorLog, '')
// stderr goes to the log as well as to the harness (which waits for the "listening on" line)
const logged = (cmd: string[], file: string) => ['bash', '-c', `exec "$@" 2> >(tee -a ${file} >&2)`, 'bash', ...cmd]

const fake = await startFake()
const command = await resolveGatewayCommand(flag('gateway') ?? 'build', dir)
// set here, so the gateway does not re-exec itself to set them (the log wrapper would be left behind)
const gc = { ...FLOOR_ENV, BUN_JSC_logGC: '1' }
const gw = await startGateway(logged(command.cmd, gwLog), command.how, fake, { openai: ['bench-unused'], chatOnly: ['bench-unused-2'], anthropic: [MODEL] }, gc)
const floor = await startFloor(fake, { wrap: (cmd) => logged(cmd, floorLog), env: gc })
const floorUrl = floor.url
const anthropic = { 'content-type': 'application/json', 'anthropic-version': '2023-06-01' }

/** GCs logged since `from`: how many (full ones among them), and the sum of their pauses. */
function gcsSince(file: string, from: number): { count: number; ms: number; full: number; end: number } {
  const text = readFileSync(file, 'utf8')
  const lines = text.slice(from).split('\n')
  let count = 0, ms = 0, full = 0
  for (const line of lines) {
    if (line.includes('START')) {
      count++
      if (line.includes('FullCollection')) full++
    }
    // each line of a collection that paused the program gives that pause as `p=…ms`
    for (const pause of line.matchAll(/\bp=([\d.]+)ms/g)) ms += Number(pause[1])
  }
  return { count, ms, full, end: text.length }
}

console.log(`GC per request (${command.how}), ${n} requests per size, one at a time; added p50 over direct`)
console.log('| body | target | GCs per request | full GCs per request | GC ms per request | added p50 |')
console.log('| --- | --- | --- | --- | --- | --- |')
for (const size of sizes) {
  const body = JSON.stringify({ ...agentBody(AGENT_SIZES[size]!), model: MODEL, stream: false })
  const direct = { url: `${fake.url}/v1/messages`, headers: { ...anthropic, 'x-api-key': UPSTREAM_KEY }, body, wire: 'messages' as const }
  const targets = [
    { name: 'tollgate', log: gwLog, req: { ...direct, url: `${gw.url}/v1/messages`, headers: { ...anthropic, 'x-api-key': gw.key } } },
    { name: 'floor', log: floorLog, req: { ...direct, url: `${floorUrl}/v1/messages` } },
  ]
  for (const t of targets) await sequential(t.req, 50) // warm
  const directMs = median((await sequential(direct, n)).ms)
  for (const t of targets) {
    const from = gcsSince(t.log, 0).end
    const run = await sequential(t.req, n)
    await Bun.sleep(200) // the log's last lines
    const g = gcsSince(t.log, from)
    console.log(`| ${size} | ${t.name} | ${(g.count / n).toFixed(2)} | ${(g.full / n).toFixed(3)} | ${(g.ms / n).toFixed(3)} | ${(median(run.ms) - directMs).toFixed(2)} |`)
  }
}
await gw.stop()
await floor.child.stop()
await fake.child.stop()
