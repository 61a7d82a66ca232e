/**
 * What each step of a large passthrough adds over the floor, in one run (issue #18): the same grown Claude Code turn
 * (35 KB, 1 MB, 4 MB) to the fake directly, through the bare proxies of step-proxy.ts (floor, + one Blob, + the
 * scan, + Elysia) and through Tollgate, request by request in a rotating order, after a warm-up of small bodies.
 * Prints each target's added p50 (ms, over direct) per size and its slope per MB from the 35 KB body.
 *
 *   bun bench/passthrough-steps.ts [--gateway=build|binary|source|<path>] [--rounds=4]
 */
import { agentBody } from '../tests/helpers/agent-body'
import { median, spawnChild, type Child } from './lib'
import { FLOOR_ENV, ROOT, UPSTREAM_KEY, resolveGatewayCommand, startFake, startGateway, tempDir } from './targets'

const flag = (name: string) => Bun.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1]
const rounds = Number(flag('rounds') ?? 4)
const SIZES: [string, number, number][] = [['35 KB', 35_000, 60], ['1 MB', 1 << 20, 20], ['4 MB', 4 << 20, 6]] // per round
const MODEL = 'claude-bench-d16'

const fake = await startFake()
const children: Child[] = [fake.child]
const anthropic = { 'content-type': 'application/json', 'anthropic-version': '2023-06-01' }
const targets: Record<string, { url: string; headers: Record<string, string> }> = { direct: { url: `${fake.url}/v1/messages`, headers: { ...anthropic, 'x-api-key': UPSTREAM_KEY } } }
for (const step of ['floor', 'blob', 'scan', 'elysia']) {
  const child = await spawnChild(['bun', `${ROOT}/bench/step-proxy.ts`, step, '--upstream', fake.url], { name: step, env: FLOOR_ENV, isReady: (line) => line.startsWith('{"port"') })
  children.push(child)
  targets[step] = { url: `http://127.0.0.1:${(JSON.parse(child.readyLine) as { port: number }).port}/v1/messages`, headers: { ...anthropic, 'x-api-key': UPSTREAM_KEY } }
}
const command = await resolveGatewayCommand(flag('gateway') ?? 'build', tempDir())
const gateway = await startGateway(command.cmd, command.how, fake, { openai: ['bench-unused'], chatOnly: ['bench-unused-2'], anthropic: [MODEL] })
targets.tollgate = { url: `${gateway.url}/v1/messages`, headers: { ...anthropic, 'x-api-key': gateway.key } }
const names = Object.keys(targets)

async function once(name: string, body: string): Promise<number> {
  const started = performance.now()
  const res = await fetch(targets[name]!.url, { method: 'POST', headers: targets[name]!.headers, body })
  await res.arrayBuffer()
  if (!res.ok) throw new Error(`${name}: ${res.status}`)
  return performance.now() - started
}

const small = JSON.stringify({ ...agentBody(35_000), model: MODEL, stream: false })
for (const name of names) for (let i = 0; i < 1500; i++) await once(name, small)
const p50: Record<string, Record<string, number>> = {}
for (const [label, bytes, perRound] of SIZES) {
  const body = JSON.stringify({ ...agentBody(bytes), model: MODEL, stream: false })
  const seen: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]))
  for (let r = 0; r < rounds; r++) {
    const order = names.map((_, i) => names[(i + r) % names.length]!)
    for (let i = 0; i < perRound; i++) for (const name of order) seen[name]!.push(await once(name, body))
  }
  for (const name of names) (p50[name] ??= {})[label] = median(seen[name]!)
}
const mb = (label: string) => SIZES.find(([l]) => l === label)![1] / 1048576
const added = (name: string, label: string) => p50[name]![label]! - p50.direct![label]!
const slope = (name: string, label: string) => (added(name, label) - added(name, '35 KB')) / (mb(label) - mb('35 KB'))
console.log(`passthrough steps (${command.how}), added p50 ms over direct, and ms per MB from 35 KB:`)
console.log('| target | 35 KB | 1 MB | 4 MB | per MB to 1 MB | per MB to 4 MB |\n| --- | --- | --- | --- | --- | --- |')
for (const name of names.slice(1)) {
  console.log(`| ${name} | ${added(name, '35 KB').toFixed(2)} | ${added(name, '1 MB').toFixed(2)} | ${added(name, '4 MB').toFixed(2)} | ${slope(name, '1 MB').toFixed(2)} | ${slope(name, '4 MB').toFixed(2)} |`)
}
await gateway.stop()
for (const child of children) await child.stop()
process.exit(0)
