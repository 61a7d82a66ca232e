/**
 * Two gateway builds on one fake upstream, one request at a time, interleaved with direct request by request
 * (the order rotated each round): each one's added p50 over direct for the grown Claude Code turn at each size,
 * non-stream and stream (time to the first content delta). `agent-bodies.ts` runs one build beside the floor and
 * Portkey; this pairs two builds in the same minutes, so the difference is the change's and not the machine's.
 *
 *   bun bench/ab-latency.ts <binary A> <binary B> [--sizes=35k,1m,4m] [--rounds=6]
 */
import { agentBody } from '../tests/helpers/agent-body'
import { AGENT_SIZES, median } from './lib'
import { UPSTREAM_KEY, startFake, startGateway, type Gateway } from './targets'

const [a, b] = Bun.argv.slice(2).filter((x) => !x.startsWith('--'))
if (!a || !b) throw new Error('usage: bun bench/ab-latency.ts <binary A> <binary B> [--sizes=35k,1m,4m] [--rounds=6]')
const flag = (name: string) => Bun.argv.find((x) => x.startsWith(`--${name}=`))?.split('=')[1]
/** requests per target per round */
const PER_ROUND: Record<string, number> = { '23k': 60, '35k': 60, '200k': 40, '1m': 20, '4m': 6 }
const sizes = (flag('sizes') ?? '35k,1m,4m').split(',')
const rounds = Number(flag('rounds') ?? 6)
const MODEL = 'claude-bench-d16'
const STREAM_MODEL = 'claude-bench-d4-p10'

const fake = await startFake()
const models = { openai: ['bench-unused'], chatOnly: ['bench-unused-2'], anthropic: [MODEL, STREAM_MODEL] }
const gateways: Record<'A' | 'B', Gateway> = { A: await startGateway([a], a, fake, models), B: await startGateway([b], b, fake, models) }
const anthropic = { 'content-type': 'application/json', 'anthropic-version': '2023-06-01' }
const targets = {
  direct: { url: `${fake.url}/v1/messages`, key: UPSTREAM_KEY },
  A: { url: `${gateways.A.url}/v1/messages`, key: gateways.A.key },
  B: { url: `${gateways.B.url}/v1/messages`, key: gateways.B.key },
}
type Target = keyof typeof targets

/** ms to the whole answer (non-stream) or to the first content delta (stream) */
async function once(target: Target, body: string, stream: boolean): Promise<number> {
  const t = targets[target]
  const started = performance.now()
  const res = await fetch(t.url, { method: 'POST', headers: { ...anthropic, 'x-api-key': t.key }, body })
  if (res.status !== 200) throw new Error(`${target}: ${res.status} ${(await res.text()).slice(0, 200)}`)
  if (!stream) {
    await res.arrayBuffer()
    return performance.now() - started
  }
  const reader = res.body!.getReader()
  const decoder = new TextDecoder()
  let seen = ''
  let at = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    seen += decoder.decode(value, { stream: true })
    if (!at && seen.includes('content_block_delta')) at = performance.now() - started
  }
  return at
}

console.log(`A = ${a}\nB = ${b}\nadded p50 over direct (ms), ${rounds} rounds interleaved`)
console.log('| body | A added | B added | B − A | A TTFT added | B TTFT added | B − A TTFT |')
console.log('| --- | --- | --- | --- | --- | --- | --- |')
for (const size of sizes) {
  const bytes = AGENT_SIZES[size]!
  const perRound = PER_ROUND[size]!
  const grown = agentBody(bytes)
  const plain = JSON.stringify({ ...grown, model: MODEL, stream: false })
  const streamed = JSON.stringify({ ...grown, model: STREAM_MODEL, stream: true })
  const order: Target[] = ['direct', 'A', 'B']
  for (const t of order) for (let i = 0; i < 5; i++) await once(t, plain, false) // warm
  const ms: Record<string, number[]> = {}
  for (let r = 0; r < rounds; r++) {
    for (let i = 0; i < perRound; i++) {
      for (let k = 0; k < order.length; k++) {
        const t = order[(i + k + r) % order.length]!
        ;(ms[t] ??= []).push(await once(t, plain, false))
        if (i % 4 === 0) (ms[`${t} stream`] ??= []).push(await once(t, streamed, true))
      }
    }
  }
  const added = (t: string) => median(ms[t]!) - median(ms[t.endsWith('stream') ? 'direct stream' : 'direct']!)
  const f = (n: number) => n.toFixed(2)
  console.log(`| ${size} | ${f(added('A'))} | ${f(added('B'))} | ${f(added('B') - added('A'))} | ${f(added('A stream'))} | ${f(added('B stream'))} | ${f(added('B stream') - added('A stream'))} |`)
}
await gateways.A.stop()
await gateways.B.stop()
await fake.child.stop()
