/**
 * The cost of the gateway's front door (Elysia routing, hooks, parsing, validation, response mapping) next
 * to a bare `Bun.serve` + `fetch` proxy, in one process against the bench's fake upstream (its own process).
 * Rounds interleave: direct to the fake, through the bare proxy (the floor), through `createApp` of this
 * tree and, with `--before=<git rev>`, through `createApp` of that revision (extracted to a temp dir), so a
 * change is measured against its parent in the same run.
 *
 *   bun bench/front-door.ts [--case=chat|messages|responses] [--n=300] [--rounds=12] [--before=HEAD~1|<dir>] [--priced]
 *
 * Prints p50 / mean / p99 of each target, the CPU time this process spent per request (client, floor and
 * gateways live here; the fake does not), and each gateway's added time as a multiple of the floor's.
 * Models are free (self-use mode): nothing is reserved, settle still logs each request; `--priced` prices them as
 * bench/targets.ts does (ModelRatio, CompletionRatio), so every request is reserved and settled against the quota.
 */
import { existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startFake, ROOT, UPSTREAM_KEY, type Fake } from './targets'

const option = (name: string, fallback: string) => Bun.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback
const kind = option('case', 'chat')
const n = Number(option('n', '300'))
const rounds = Number(option('rounds', '12'))
const before = option('before', '')
const priced = Bun.argv.includes('--priced')

interface InProcessGateway {
  url: string
  key: string
  stop(): Promise<void>
}

/** `createApp` of the tree at `root` on loopback, with a temp database, one free token and channels at the fake. */
async function startInProcess(root: string, fake: Fake): Promise<InProcessGateway> {
  const { createApp } = await import(join(root, 'src/app'))
  const { loadConfig } = await import(join(root, 'src/config'))
  // the SQLite modules moved under src/db/sqlite/: a --before revision may have them at src/db/
  const sqliteDir = existsSync(join(root, 'src/db/sqlite/client.ts')) ? 'src/db/sqlite' : 'src/db'
  const { closeDatabase, openDatabase } = await import(join(root, sqliteDir, 'client'))
  const { migrate } = await import(join(root, sqliteDir, 'migrate'))
  const { createDeps } = await import(join(root, 'src/deps'))
  const { createToken } = await import(join(root, 'src/services/tokens/create-token'))
  const dataDir = mkdtempSync(join(tmpdir(), 'tollgate-front-door-'))
  const config = loadConfig({ ROOT_PASSWORD: '', DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1' })
  const db = openDatabase(config.sqlitePath)
  migrate(db)
  // since the storage seam createDeps takes the repositories (and is async); before it, the database
  const seam = existsSync(join(root, 'src/db/repos/rows.ts')) ? await import(join(root, sqliteDir, 'repos')) : undefined
  const deps = await createDeps(config, seam ? seam.createSqliteRepos(db, { writerThread: config.writerThread }) : db)
  // free: no quota writes on the request path, so the front door is not lost in SQLite noise (awaits: a no-op on a tree where these are synchronous)
  await deps.options.set('SelfUseModeEnabled', !priced)
  if (priced) {
    await deps.options.set('ModelRatio', { 'bench-d16': 1.25, 'chatonly-d16': 1.25 })
    await deps.options.set('CompletionRatio', { 'bench-d16': 4, 'chatonly-d16': 4 })
  }
  await deps.routing.channels.create([
    { type: 1, name: 'bench-openai', baseUrl: fake.url, keyText: UPSTREAM_KEY, models: 'bench-d16', group: 'default', autoBan: 0 },
    { type: 8, name: 'bench-chat-only', baseUrl: fake.url, keyText: UPSTREAM_KEY, models: 'chatonly-d16', group: 'default', autoBan: 0 },
  ])
  const user = await deps.repos.users.insert({ username: 'bench', password: 'unused', quota: 1_000_000_000 })
  const key = (await createToken(deps, { user, fields: { name: 'bench', unlimited_quota: true } })).key as string
  const app = createApp(deps).listen({ port: 0, hostname: '127.0.0.1' })
  return {
    url: `http://127.0.0.1:${app.server!.port}`,
    key,
    async stop() {
      await app.stop(true)
      await deps.metering.stop() // Elysia does not wait for the stop hook's; the last batch is written before the close
      closeDatabase(db)
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

/** The revision's source in a temp dir, sharing this checkout's node_modules (a directory is used as it is). */
function extract(rev: string): string {
  if (existsSync(join(rev, 'src/app.ts'))) return rev
  const dir = mkdtempSync(join(tmpdir(), 'tollgate-front-door-src-'))
  const archive = Bun.spawnSync(['git', 'archive', rev], { cwd: ROOT })
  if (archive.exitCode !== 0) throw new Error(`git archive ${rev}: ${archive.stderr.toString()}`)
  Bun.spawnSync(['tar', '-x', '-C', dir], { stdin: archive.stdout })
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'))
  return dir
}

/** The floor: what any proxy in Bun pays (read the body, fetch upstream, hand the answer back). */
function startFloor(fake: Fake) {
  return Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(request) {
      const upstream = await fetch(fake.url + new URL(request.url).pathname, {
        method: request.method,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${UPSTREAM_KEY}` },
        body: await request.text(),
      })
      return new Response(upstream.body, { status: upstream.status, headers: upstream.headers })
    },
  })
}

const prompt = 'Say hello in a few words.'
const cases: Record<string, { path: string; headers: (key: string) => Record<string, string>; body: string }> = {
  chat: {
    path: '/v1/chat/completions',
    headers: (key) => ({ 'content-type': 'application/json', authorization: `Bearer ${key}` }),
    body: JSON.stringify({ model: 'bench-d16', messages: [{ role: 'user', content: prompt }], max_tokens: 64 }),
  },
  messages: {
    path: '/v1/messages',
    headers: (key) => ({ 'content-type': 'application/json', 'x-api-key': key, 'anthropic-version': '2023-06-01' }),
    body: JSON.stringify({ model: 'bench-d16', max_tokens: 64, messages: [{ role: 'user', content: prompt }] }),
  },
  responses: {
    path: '/v1/responses',
    headers: (key) => ({ 'content-type': 'application/json', authorization: `Bearer ${key}` }),
    body: JSON.stringify({ model: 'chatonly-d16', input: prompt }),
  },
}
const req = cases[kind]
if (!req) throw new Error(`unknown --case=${kind}`)

interface Target {
  name: string
  url: string
  init: RequestInit
  ms: number[]
  cpuUs: number
}

async function timed(target: Target, count: number, keep: boolean): Promise<void> {
  const started = process.cpuUsage()
  for (let i = 0; i < count; i++) {
    const t0 = performance.now()
    const res = await fetch(target.url, target.init)
    const text = await res.text()
    if (res.status !== 200) throw new Error(`${target.name}: ${res.status} ${text.slice(0, 300)}`)
    if (keep) target.ms.push(performance.now() - t0)
  }
  const used = process.cpuUsage(started)
  if (keep) target.cpuUs += used.user + used.system
}

const fake = await startFake()
const floor = startFloor(fake)
const current = await startInProcess(ROOT, fake)
const beforeDir = before ? extract(before) : ''
const previous = beforeDir ? await startInProcess(beforeDir, fake) : undefined
const target = (name: string, url: string, key: string): Target => ({
  name,
  url: url + req.path,
  init: { method: 'POST', headers: req.headers(key), body: req.body },
  ms: [],
  cpuUs: 0,
})
const targets = [
  target('direct', fake.url, UPSTREAM_KEY),
  target('floor', `http://127.0.0.1:${floor.port}`, UPSTREAM_KEY),
  ...(previous ? [target(`before ${before}`, previous.url, previous.key)] : []),
  target('this tree', current.url, current.key),
]
for (const t of targets) await timed(t, 500, false)
for (let r = 0; r < rounds; r++) for (const t of targets) await timed(t, n, true)

const pct = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))]!
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length
const stats = targets.map((t) => ({ name: t.name, p50: pct(t.ms, 0.5), mean: mean(t.ms), p99: pct(t.ms, 0.99), cpu: t.cpuUs / t.ms.length }))
const [direct, floorStat] = stats as [(typeof stats)[0], (typeof stats)[0]]
const f = (x: number) => x.toFixed(3)
const times = (a: number, b: number) => `${(a / b).toFixed(2)}×`
console.log(`case ${kind}, ${rounds} rounds × ${n} sequential requests per target (ms; cpu = µs of this process per request)`)
console.log('| target | p50 | mean | p99 | cpu | added p50 | added mean | added cpu | added p50 / floor | added cpu / floor |')
console.log('|---|---|---|---|---|---|---|---|---|---|')
for (const s of stats) {
  const added = { p50: s.p50 - direct.p50, mean: s.mean - direct.mean, cpu: s.cpu - direct.cpu }
  const floorAdded = { p50: floorStat.p50 - direct.p50, cpu: floorStat.cpu - direct.cpu }
  const rel = s === direct ? ['', '', '', '', ''] : [f(added.p50), f(added.mean), added.cpu.toFixed(0), times(added.p50, floorAdded.p50), times(added.cpu, floorAdded.cpu)]
  console.log(`| ${s.name} | ${f(s.p50)} | ${f(s.mean)} | ${f(s.p99)} | ${s.cpu.toFixed(0)} | ${rel.join(' | ')} |`)
}

await current.stop()
await previous?.stop()
if (beforeDir && beforeDir !== before) rmSync(beforeDir, { recursive: true, force: true })
floor.stop(true)
await fake.child.stop()
process.exit(0)
