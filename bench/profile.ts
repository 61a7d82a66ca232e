/**
 * Where does the gateway spend its time? Runs Tollgate from source under `bun --cpu-prof --cpu-prof-md`,
 * sends one kind of request at it for a while, stops it cleanly and prints the profile's top functions.
 *
 *   bun bench/profile.ts [--case=chat|messages|responses|claude|agent|agent-conversion|stream] [--bytes=N (agent)] [--seconds=10] [--connections=8]
 *     [--warmup=3 (seconds of the same load first, outside the measured window)] [--root=<another tree's checkout, run from its source>]
 *
 * The full profile (Markdown, grep-friendly) stays in the printed directory, with `window.json` (the measured
 * window's start and end, epoch ms, and its request count), which `bench/profile-diff.ts` reads to compare two.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { agentBody } from '../tests/helpers/agent-body'
import { sequential, stream, type Req } from './clients'
import { START_ENV } from '../src/launch/start-env'
import { ROOT, startFake, startGateway, tempDir } from './targets'

const option = (name: string, fallback: string) => Bun.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback
const kind = option('case', 'chat')
const seconds = Number(option('seconds', '10'))
const connections = Number(option('connections', '8'))
const warmup = Number(option('warmup', '3'))
const root = resolve(option('root', ROOT))

const dir = tempDir({ keep: true }) // the profile is read after the run
const fake = await startFake()
const gw = await startGateway(
  ['bun', '--cpu-prof', '--cpu-prof-md', `--cpu-prof-dir=${dir}`, '--cpu-prof-interval=100', join(root, 'src/index.ts')],
  `bun --cpu-prof ${root}/src/index.ts`,
  fake,
  { openai: ['bench-d16', 'bench-d64-p0'], chatOnly: ['chatonly-d16'], anthropic: ['claude-bench-d16'] },
  // set up front: the gateway does not re-exec itself under --cpu-prof (a sample's SIGPWR during execve killed it)
  { ...START_ENV },
)
const json = { 'content-type': 'application/json' }
const prompt = 'Say hello in a few words.'
const reqs: Record<string, Req> = {
  chat: { url: `${gw.url}/v1/chat/completions`, headers: { ...json, authorization: `Bearer ${gw.key}` }, body: JSON.stringify({ model: 'bench-d16', messages: [{ role: 'user', content: prompt }], max_tokens: 64 }), wire: 'chat' },
  messages: { url: `${gw.url}/v1/messages`, headers: { ...json, 'x-api-key': gw.key, 'anthropic-version': '2023-06-01' }, body: JSON.stringify({ model: 'bench-d16', max_tokens: 64, messages: [{ role: 'user', content: prompt }] }), wire: 'messages' },
  responses: { url: `${gw.url}/v1/responses`, headers: { ...json, authorization: `Bearer ${gw.key}` }, body: JSON.stringify({ model: 'chatonly-d16', input: prompt }), wire: 'responses' },
  // Claude Code's captured second turn (23 KB: tools, system prompt, a tool result) to an Anthropic channel
  claude: { url: `${gw.url}/v1/messages`, headers: { ...json, 'x-api-key': gw.key, 'anthropic-version': '2023-06-01' }, body: JSON.stringify({ ...JSON.parse(readFileSync(join(ROOT, 'tests/fixtures/clients/claude-code-tool-result-followup.json'), 'utf8')).body, model: 'claude-bench-d16', stream: false }), wire: 'messages' },
  // Issue #18: Claude Code's turn grown with tool results to --bytes (default 1 MB), passthrough to an Anthropic channel
  agent: { url: `${gw.url}/v1/messages`, headers: { ...json, 'x-api-key': gw.key, 'anthropic-version': '2023-06-01' }, body: JSON.stringify({ ...agentBody(Number(option('bytes', String(1 << 20)))), model: 'claude-bench-d16', stream: false }), wire: 'messages' },
  // the same grown turn converted: /v1/messages to an OpenAI chat channel
  'agent-conversion': { url: `${gw.url}/v1/messages`, headers: { ...json, 'x-api-key': gw.key, 'anthropic-version': '2023-06-01' }, body: JSON.stringify({ ...agentBody(Number(option('bytes', String(1 << 20)))), model: 'bench-d16', stream: false }), wire: 'messages' },
  stream: { url: `${gw.url}/v1/chat/completions`, headers: { ...json, authorization: `Bearer ${gw.key}` }, body: JSON.stringify({ model: 'bench-d64-p0', messages: [{ role: 'user', content: prompt }], stream: true, stream_options: { include_usage: true } }), wire: 'chat' },
}
const found = reqs[kind]
if (!found) throw new Error(`unknown --case=${kind}`)
const req: Req = found
async function load(forSeconds: number): Promise<number> {
  const end = performance.now() + forSeconds * 1000
  let done = 0
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < end) {
        if (kind === 'stream') await stream(req, 64)
        else await sequential(req, 20)
        done += kind === 'stream' ? 1 : 20
      }
    }),
  )
  return done
}
if (warmup > 0) await load(warmup)
const from = Date.now()
const done = await load(seconds)
writeFileSync(join(dir, 'window.json'), JSON.stringify({ root, case: kind, from, to: Date.now(), requests: done }))
await gw.child.stop(120_000) // writing a long profile takes seconds on a loaded machine
await fake.child.stop()
console.error(`${done} requests; profile in ${dir}`)
const md = readdirSync(dir).find((f) => f.endsWith('.md'))
if (md) {
  const text = readFileSync(join(dir, md), 'utf8')
  console.log(text.slice(0, 12_000))
}
