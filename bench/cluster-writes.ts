/**
 * What cache invalidation (src/cluster) costs one node on the local backend: the management writes that now publish
 * (a token, a user's balance, an option, a channel, a logout), and the relay's own per-request steps that changed
 * around them (the key check, a success recorded for the channel's health), each timed in one process against the
 * same steps of `--before` (a git revision, extracted to a temp dir, or a directory), rounds interleaved and the
 * order swapped every round, so the shared machine's load falls on both alike.
 *
 *   bun bench/cluster-writes.ts [--before=main] [--rounds=15] [--n=400] [--redis]
 *
 * Prints µs per call of each tree (median over rounds) and this tree ÷ before (median of the per-round ratios).
 * SQLite on a temp file, no writer thread, no Redis: the single-node path. `--redis` adds this tree once more with
 * REDIS_URL set (a throwaway redis-server on loopback): what a node of several pays, each write awaiting its publish.
 */
import { existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startRedis } from '../tests/helpers/redis-server'
import { ROOT } from './targets'

const option = (name: string, fallback: string) => Bun.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback
const before = option('before', 'main')
const rounds = Number(option('rounds', '15'))
const n = Number(option('n', '400'))
const withRedis = Bun.argv.includes('--redis')

type Op = (i: number) => unknown
interface Tree {
  name: string
  ops: Record<string, Op>
  stop(): Promise<void>
}

/** One node of the tree at `root`: its own deps on a temp SQLite file, a user, a token and a channel. */
async function startTree(name: string, root: string, env: Record<string, string> = {}): Promise<Tree> {
  const { loadConfig } = await import(join(root, 'src/config'))
  const { closeDatabase, openDatabase } = await import(join(root, 'src/db/sqlite/client'))
  const { migrate } = await import(join(root, 'src/db/sqlite/migrate'))
  const { createSqliteRepos } = await import(join(root, 'src/db/sqlite/repos'))
  const { createDeps } = await import(join(root, 'src/deps'))
  const { createToken } = await import(join(root, 'src/services/tokens/create-token'))
  const { verifyToken } = await import(join(root, 'src/relay/auth/verify-token'))
  const dataDir = mkdtempSync(join(tmpdir(), 'tollgate-cluster-writes-'))
  const config = loadConfig({ ROOT_PASSWORD: '', DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', WRITER_THREAD: 'false', LOG_LEVEL: 'silent', ...env })
  const db = openDatabase(config.sqlitePath)
  migrate(db)
  const deps = await createDeps(config, createSqliteRepos(db, { writerThread: false }))
  const [channel] = await deps.routing.channels.create([
    { type: 1, name: 'bench', baseUrl: 'http://127.0.0.1:9', keyText: 'sk-bench', models: 'bench-model', group: 'default' },
  ])
  const user = await deps.repos.users.insert({ username: 'bench', password: 'unused', quota: 1_000_000_000 })
  const { token, key } = await createToken(deps, { user, fields: { name: 'bench', unlimited_quota: true } })
  const headers = new Headers({ authorization: `Bearer ${key}` })
  const expires = Math.floor(Date.now() / 1000) + 3600
  let session = 0
  const ops: Record<string, Op> = {
    'token update': (i) => deps.repos.tokens.update(token.id, user.id, { name: `bench-${i & 1}` }),
    'user balance (addQuota)': () => deps.repos.users.addQuota(user.id, 1),
    'option set': (i) => deps.options.set('TokenRpmLimit', i & 1),
    'channel update': (i) => deps.routing.channels.update(channel.id, { weight: i % 5 }),
    'logout (revoke a session)': () => deps.revokedSessions.revoke(`${name}-${++session}`, expires),
    'relay: key check (warm)': () => verifyToken(deps, { headers, clientIp: '127.0.0.1' }),
    'relay: success recorded': () => deps.routing.recordResult(channel.id, { ok: true }),
  }
  return {
    name,
    ops,
    async stop() {
      await deps.jobs?.stop()
      await deps.metering.stop()
      await deps.coord.close()
      closeDatabase(db)
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

/** The revision's source in a temp dir, sharing this checkout's node_modules (a directory is used as it is). */
function extract(rev: string): string {
  if (existsSync(join(rev, 'src/app.ts'))) return rev
  const dir = mkdtempSync(join(tmpdir(), 'tollgate-cluster-writes-src-'))
  const archive = Bun.spawnSync(['git', 'archive', rev], { cwd: ROOT })
  if (archive.exitCode !== 0) throw new Error(`git archive ${rev}: ${archive.stderr.toString()}`)
  Bun.spawnSync(['tar', '-x', '-C', dir], { stdin: archive.stdout })
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'))
  return dir
}

/** µs per call of `count` calls, each awaited (a synchronous answer is awaited too: as its callers do). */
async function time(op: Op, count: number, from: number): Promise<number> {
  const start = performance.now()
  for (let i = 0; i < count; i++) await op(from + i)
  return ((performance.now() - start) * 1000) / count
}

const beforeDir = extract(before)
const redis = withRedis ? await startRedis() : undefined
const trees = [await startTree(`before ${before}`, beforeDir), await startTree('this tree', ROOT)]
if (redis) trees.push(await startTree('this tree, REDIS_URL', ROOT, { REDIS_URL: redis.url }))
const names = Object.keys(trees[1]!.ops)
const samples = new Map<string, number[][]>(names.map((op) => [op, trees.map(() => [])]))
let calls = 0
for (const op of names) for (const tree of trees) await time(tree.ops[op]!, n, (calls += n)) // warm-up
for (let r = 0; r < rounds; r++) {
  for (const op of names) {
    const order = trees.map((_, t) => t)
    if (r % 2) order.reverse()
    for (const t of order) samples.get(op)![t]!.push(await time(trees[t]!.ops[op]!, n, (calls += n)))
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
const fmt = (x: number) => (x < 10 ? x.toFixed(2) : x.toFixed(1))
const others = trees.slice(1)
console.log(`${rounds} rounds × ${n} calls per step and tree, order swapped each round; µs per call, median of the rounds; ratios: median of the per-round ratios`)
console.log(`| step | ${trees.map((t) => t.name).join(' | ')} | ${others.map((t) => `${t.name} ÷ before`).join(' | ')} |`)
console.log(`|---|${trees.map(() => '---|').join('')}${others.map(() => '---|').join('')}`)
for (const op of names) {
  const [b, ...rest] = samples.get(op)! as [number[], ...number[][]]
  const ratios = rest.map((xs) => median(xs.map((x, i) => x / b[i]!)).toFixed(2))
  console.log(`| ${op} | ${[b, ...rest].map((xs) => fmt(median(xs))).join(' | ')} | ${ratios.join(' | ')} |`)
}
for (const tree of trees) await tree.stop()
await redis?.stop()
if (beforeDir !== before) rmSync(beforeDir, { recursive: true, force: true })
process.exit(0)
