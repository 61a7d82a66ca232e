/**
 * Gateway processes (the compiled binary, as an operator runs it: tests/e2e/binary-cache.ts) on one throwaway PostgreSQL and Redis, for the
 * multi-node tests. Each node is its own process with its own port and empty DATA_DIR; they share DATABASE_URL,
 * REDIS_URL and the two secrets. Nothing is mocked: the nodes coordinate through the real servers.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { cachedBinary } from '../e2e/binary-cache'
import type { PgServer } from '../helpers/pg-server'

export const ROOT_PASSWORD = 'multi-node-root-password'
const SECRETS = { SESSION_SECRET: 'multi-node-session-secret-0123456789abcdef', CRYPTO_SECRET: 'multi-node-crypto-secret-0123456789abcdef' }

export interface Node {
  name: string
  url: string
  proc: ReturnType<typeof Bun.spawn>
  output(): string
  stop(signal?: 'SIGTERM' | 'SIGKILL'): Promise<number>
}

function freePort(): number {
  const server = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response() })
  const port = server.port!
  server.stop(true)
  return port
}

/** Start one node and wait until it answers /readyz; throws with its output when it exits or never answers. */
export async function startNode(name: string, env: Record<string, string>): Promise<Node> {
  const dataDir = mkdtempSync(join(tmpdir(), `tollgate-${name}-`))
  const port = freePort()
  const proc = Bun.spawn([await cachedBinary()], {
    cwd: dataDir,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dataDir, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', LOG_FORMAT: 'json', ROOT_PASSWORD, ...SECRETS, ...env },
    stdout: 'pipe',
    stderr: 'pipe',
  })
  let out = ''
  for (const stream of [proc.stdout, proc.stderr]) {
    void (async () => {
      const reader = stream.getReader()
      for (let r = await reader.read(); !r.done; r = await reader.read()) if (out.length < 50_000) out += new TextDecoder().decode(r.value)
    })().catch(() => {})
  }
  const url = `http://127.0.0.1:${port}`
  const node: Node = {
    name,
    url,
    proc,
    output: () => out,
    async stop(signal = 'SIGTERM') {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill(signal)
      const code = await proc.exited
      rmSync(dataDir, { recursive: true, force: true })
      return code
    },
  }
  // a hang detector: two nodes migrating at once on a loaded two-core machine took more than 30 s
  const deadline = Date.now() + 60_000
  while (Date.now() < deadline) {
    if (await fetch(`${url}/readyz`).then((r) => r.ok, () => false)) return node
    if (proc.exitCode !== null) break
    await Bun.sleep(50)
  }
  await node.stop('SIGKILL')
  throw new Error(`node ${name} did not start (exit ${proc.exitCode}):\n${out.slice(-3000)}`)
}

/** Start `n` nodes at once on one database and Redis (so their migrations race, as in a real roll-out). */
export async function startCluster(pg: PgServer, redisUrl: string, n: number, env: Record<string, string> = {}): Promise<{ databaseUrl: string; nodes: Node[] }> {
  const databaseUrl = await pg.createDatabase()
  const nodes = await Promise.all(Array.from({ length: n }, (_, i) => startNode(`node${i + 1}`, { DATABASE_URL: databaseUrl, REDIS_URL: redisUrl, ...env })))
  return { databaseUrl, nodes }
}

export interface Api {
  call(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>
  must(method: string, path: string, body?: unknown): Promise<any>
}

/** A management client logged in on `url` (the session cookie works on every node: they share SESSION_SECRET). */
export async function login(url: string, username: string, password: string): Promise<Api & { cookie: string }> {
  const res = await fetch(`${url}/api/user/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username, password }) })
  const json = (await res.json()) as any
  if (!res.ok || !json.success) throw new Error(`login ${username} on ${url}: ${res.status} ${JSON.stringify(json)}`)
  const cookie = res.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ')
  return { cookie, ...apiWith(url, cookie) }
}

export function apiWith(url: string, cookie: string): Api {
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(url + path, { method, headers: { 'content-type': 'application/json', cookie }, body: body === undefined ? undefined : JSON.stringify(body) })
    const text = await res.text()
    let parsed: any = text
    try {
      parsed = JSON.parse(text)
    } catch {}
    return { status: res.status, body: parsed }
  }
  return {
    call,
    async must(method, path, body) {
      const r = await call(method, path, body)
      if (r.status !== 200 || r.body?.success !== true) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`)
      return r.body.data
    },
  }
}

const chatBody = (model = 'gpt-4o') => JSON.stringify({ model, max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] })

export function chat(url: string, key: string, body = chatBody()): Promise<Response> {
  return fetch(`${url}/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body })
}

/** Poll `check` until it holds; answers the milliseconds it took, or throws after `timeoutMs`. */
export async function within(timeoutMs: number, check: () => Promise<boolean>, what: string): Promise<number> {
  const start = performance.now()
  while (performance.now() - start < timeoutMs) {
    if (await check()) return performance.now() - start
    await Bun.sleep(20)
  }
  throw new Error(`not within ${timeoutMs} ms: ${what}`)
}
