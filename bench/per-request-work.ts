/**
 * Work per request that load on a shared machine does not move: SQLite statements (by SQL text), prepares,
 * JSON.parse / JSON.stringify calls and fetches per tiny chat request, counted in the gateway by the
 * `count-work.ts` preload. Runs a tree from source, so two trees compare side by side. (Bytes allocated per request
 * were tried from JavaScriptCore's GC log, `BUN_JSC_logGC=1`, and left out: summing "bytes allocated this cycle"
 * misses the collections its timers start, and heap sizes at each collection moved 68–96 kB per request between
 * runs of one tree.)
 *
 *   bun bench/per-request-work.ts [--root=<tree, default this one>] [--n=1000] [--case=chat|stream]
 *
 * Sequential requests after a warm-up; counts are read before and after (SIGUSR2), 1.5 s after the last request
 * so write-behind flushes land. Prints one JSON line: the counts per request and the statements by SQL.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { START_ENV } from '../src/launch/start-env'
import { sequential, stream, type Req } from './clients'
import { ROOT, startFake, startGateway, tempDir } from './targets'

const option = (name: string, fallback: string) => Bun.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback
const root = resolve(option('root', ROOT))
const n = Number(option('n', '1000'))
const kind = option('case', 'chat')
const file = join(tempDir(), 'counts.json')

const fake = await startFake()
const gw = await startGateway(
  ['bun', '--preload', join(ROOT, 'bench/count-work.ts'), join(root, 'src/index.ts')],
  `bun ${root}/src/index.ts`,
  fake,
  { openai: ['bench-d16', 'bench-d64-p0'], chatOnly: ['chatonly-d16'] },
  { ...START_ENV, COUNT_WORK_FILE: file },
)
const headers = { 'content-type': 'application/json', authorization: `Bearer ${gw.key}` }
const body =
  kind === 'stream'
    ? { model: 'bench-d64-p0', messages: [{ role: 'user', content: 'hi' }], stream: true, stream_options: { include_usage: true } }
    : { model: 'bench-d16', messages: [{ role: 'user', content: 'hi' }], max_tokens: 16 }
const req: Req = { url: `${gw.url}/v1/chat/completions`, headers, body: JSON.stringify(body), wire: 'chat' }

type Counts = { counts: Record<string, number>; bySql: Record<string, number> }
async function snapshot(): Promise<Counts> {
  rmSync(file, { force: true })
  process.kill(gw.pid, 'SIGUSR2')
  for (let i = 0; i < 200 && !existsSync(file); i++) await Bun.sleep(10)
  await Bun.sleep(20) // the write itself
  return JSON.parse(readFileSync(file, 'utf8')) as Counts
}
async function send(count: number): Promise<void> {
  if (kind === 'stream') {
    for (let i = 0; i < count; i++) if (!(await stream(req, 64)).ok) throw new Error('stream failed')
    return
  }
  const r = await sequential(req, count)
  if (r.errors) throw new Error(`${r.errors} errors: ${r.firstError}`)
}

await send(200) // warm: caches filled, first-use modules loaded
await Bun.sleep(1500)
const before = await snapshot()
await send(n)
await Bun.sleep(1500)
const after = await snapshot()
await gw.stop()
await fake.child.stop()

const perRequest = (a: Record<string, number>, b: Record<string, number>) =>
  Object.fromEntries(
    Object.keys(b)
      .map((k) => [k, Number(((b[k]! - (a[k] ?? 0)) / n).toFixed(3))] as const)
      .filter(([, v]) => v !== 0)
      .sort((x, y) => y[1] - x[1]),
  )
const short = (bySql: Record<string, number>) => Object.fromEntries(Object.entries(bySql).map(([sql, v]) => [sql.length > 160 ? `${sql.slice(0, 160)}…` : sql, v]))
console.log(JSON.stringify({ root, case: kind, n, perRequest: perRequest(before.counts, after.counts), statementsBySql: short(perRequest(before.bySql, after.bySql)) }, null, 1))
