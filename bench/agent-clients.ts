/**
 * Issue #18 for the other agents: Codex CLI's `/v1/responses` turn and opencode's `/v1/chat/completions` turn
 * (tests/helpers/agent-body.ts `codexBody`, `opencodeBody`: the captured follow-ups grown with tool output of this
 * repository's sources) at 35 KB, 1 MB and 4 MB, passthrough to an OpenAI channel. Direct (the same request to the
 * fake), the floor (floor-proxy.ts) and Tollgate, request by request in a rotating order, after a warm-up of small
 * bodies. Prints, per client, the added p50 (ms, over direct) per size and the slope per MB from 35 KB.
 *
 *   bun bench/agent-clients.ts [--gateway=build|binary|source|<path>] [--rounds=4]
 */
import { codexBody, opencodeBody } from '../tests/helpers/agent-body'
import { median, type Child } from './lib'
import { UPSTREAM_KEY, resolveGatewayCommand, startFake, startFloor, startGateway, tempDir } from './targets'

const flag = (name: string) => Bun.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1]
const rounds = Number(flag('rounds') ?? 4)
const SIZES: [string, number, number][] = [['35 KB', 35_000, 60], ['1 MB', 1 << 20, 20], ['4 MB', 4 << 20, 6]] // per round
const MODEL = 'bench-agent-d16'
const CLIENTS = { 'Codex (/v1/responses)': { path: '/v1/responses', body: codexBody }, 'opencode (/v1/chat/completions)': { path: '/v1/chat/completions', body: opencodeBody } }

const fake = await startFake()
const floor = await startFloor(fake)
const children: Child[] = [fake.child, floor.child]
const command = await resolveGatewayCommand(flag('gateway') ?? 'build', tempDir())
const gateway = await startGateway(command.cmd, command.how, fake, { openai: [MODEL], chatOnly: ['bench-unused'] })
const bases = { direct: { url: fake.url, key: UPSTREAM_KEY }, floor: { url: floor.url, key: UPSTREAM_KEY }, tollgate: { url: gateway.url, key: gateway.key } }
const names = Object.keys(bases) as (keyof typeof bases)[]

async function once(name: keyof typeof bases, path: string, body: string): Promise<number> {
  const { url, key } = bases[name]
  const started = performance.now()
  const res = await fetch(url + path, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` }, body })
  const text = await res.text()
  if (!res.ok || !text.includes('w15')) throw new Error(`${name} ${path}: ${res.status} ${text.slice(0, 200)}`)
  return performance.now() - started
}

const mb = (bytes: number) => bytes / 1048576
console.log(`agent clients, passthrough to an OpenAI channel (${command.how}): added p50 ms over direct, ms per MB from 35 KB in brackets`)
console.log('| client | target | 35 KB | 1 MB | 4 MB |\n| --- | --- | --- | --- | --- |')
for (const [client, { path, body: build }] of Object.entries(CLIENTS)) {
  const small = JSON.stringify({ ...build(35_000), model: MODEL, stream: false })
  for (const name of names) for (let i = 0; i < 1500; i++) await once(name, path, small)
  const added: Record<string, Record<string, number>> = {}
  const sizes: Record<string, number> = {}
  for (const [label, bytes, perRound] of SIZES) {
    const body = JSON.stringify({ ...build(bytes), model: MODEL, stream: false })
    sizes[label] = Buffer.byteLength(body)
    const seen = Object.fromEntries(names.map((n) => [n, [] as number[]]))
    for (let r = 0; r < rounds; r++) {
      const order = names.map((_, i) => names[(i + r) % names.length]!)
      for (let i = 0; i < perRound; i++) for (const name of order) seen[name]!.push(await once(name, path, body))
    }
    for (const name of names) (added[name] ??= {})[label] = median(seen[name]!) - median(seen.direct!)
  }
  const slope = (name: string, label: string) => (added[name]![label]! - added[name]!['35 KB']!) / (mb(sizes[label]!) - mb(sizes['35 KB']!))
  for (const name of ['floor', 'tollgate']) {
    const cells = SIZES.map(([label]) => (label === '35 KB' ? added[name]![label]!.toFixed(2) : `${added[name]![label]!.toFixed(2)} (${slope(name, label).toFixed(2)})`))
    console.log(`| ${client} | ${name} | ${cells.join(' | ')} |`)
  }
}
await gateway.stop()
for (const child of children) await child.stop()
process.exit(0)
