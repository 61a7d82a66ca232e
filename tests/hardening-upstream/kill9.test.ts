/**
 * `kill -9` under load. The gateway runs as its own process (the compiled binary, a temp DATA_DIR) behind a fake
 * upstream; requests stream in; the process is killed with SIGKILL and started again on the same data. Log rows
 * and their charges reach SQLite together, in batches every 200 ms: what a crash loses is at most the requests
 * served in the last flush window, and the balance in the database is exactly the sum of the charges logged
 * (never a charge without its row, nor a row without its charge; reservations live in memory and go with the
 * process). See docs/security.md, "Money and durability".
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { cachedBinary } from '../e2e/binary-cache'
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstreams'

const PASSWORD = 'kill9-root-password'
/** the log writer's interval (metering/log-writer.ts) */
const FLUSH_MS = 200
/** event-loop lag under this load and the client's own delay in seeing a response end */
const SLACK_MS = 150
const PER_CALL = 1_000

let upstream: FakeUpstream
beforeAll(async () => {
  upstream = await startFakeUpstream()
  upstream.setBehavior({ text: 'ok', firstByteDelayMs: 2, usage: { input: 10, output: 10 } })
})
afterAll(() => upstream.stop())

interface Gateway {
  url: string
  proc: ReturnType<typeof Bun.spawn>
}

function freePort(): number {
  const server = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response() })
  const port = server.port!
  server.stop(true)
  return port
}

async function startGateway(dataDir: string, env: Record<string, string>): Promise<Gateway> {
  const port = freePort()
  // the compiled gateway (built once per run, tests/e2e/binary-cache.ts): what a crash loses is the same, and it
  // starts in half the CPU of `bun src/index.ts`
  const proc = Bun.spawn([await cachedBinary()], {
    cwd: dataDir,
    env: { ...process.env, ROOT_PASSWORD: PASSWORD, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    stdout: 'pipe',
    stderr: 'pipe',
  })
  let output = ''
  for (const stream of [proc.stdout, proc.stderr]) {
    void (async () => {
      const reader = stream.getReader()
      for (let r = await reader.read(); !r.done; r = await reader.read()) if (output.length < 20_000) output += new TextDecoder().decode(r.value)
    })().catch(() => {})
  }
  const url = `http://127.0.0.1:${port}`
  const deadline = Date.now() + 60_000 // a hang detector: a loaded two-core machine is slow to start a process
  while (Date.now() < deadline) {
    if (await fetch(`${url}/api/status`).then((r) => r.ok, () => false)) return { url, proc }
    if (proc.exitCode !== null) break
    await Bun.sleep(50)
  }
  proc.kill('SIGKILL')
  throw new Error(`the gateway did not start: ${output.slice(-2000)}`)
}

async function api(url: string, method: string, path: string, body: unknown, cookie?: string) {
  const res = await fetch(url + path, { method, headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) }, body: JSON.stringify(body) })
  const json = (await res.json()) as { success: boolean; data?: any; message?: string }
  if (!res.ok || !json.success) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`)
  return { data: json.data, cookie: res.headers.get('set-cookie')?.split(';')[0] }
}

/** As an operator would: a user with a balance, a key, a channel at the fake, a price of 1,000 quota a call. */
async function setUp(url: string, quota: number): Promise<string> {
  const root = (await api(url, 'POST', '/api/user/login', { username: 'root', password: PASSWORD })).cookie!
  await api(url, 'POST', '/api/user/', { username: 'payer', password: 'payer-password-1', quota }, root)
  await api(url, 'POST', '/api/channel/', { type: 1, name: 'fake', key: 'sk-fake', base_url: upstream.url, models: 'gpt-4o', group: 'default', auto_ban: 0 }, root)
  await api(url, 'PUT', '/api/option/', { key: 'ModelPrice', value: { 'gpt-4o': PER_CALL / 500_000 } }, root)
  const user = (await api(url, 'POST', '/api/user/login', { username: 'payer', password: 'payer-password-1' })).cookie!
  const key = String((await api(url, 'POST', '/api/token/', { name: 'load', unlimited_quota: true, expired_time: -1 }, user)).data.key)
  return key.startsWith('sk-') ? key : `sk-${key}`
}

async function crashUnderLoad(writerThread: boolean) {
  const dataDir = mkdtempSync(join(tmpdir(), 'tollgate-kill9-'))
  const env = { WRITER_THREAD: String(writerThread) }
  const quota = 1_000_000_000
  try {
    const first = await startGateway(dataDir, env)
    const key = await setUp(first.url, quota)
    const served = new Map<string, number>() // request id → when the client had the whole answer
    let killing = false
    const body = JSON.stringify({ model: 'gpt-4o', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] })
    const worker = async () => {
      while (!killing) {
        try {
          const res = await fetch(`${first.url}/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body })
          await res.text()
          if (res.status === 200) served.set(res.headers.get('x-request-id')!, performance.now())
        } catch {
          return // the gateway is gone
        }
      }
    }
    const workers = Array.from({ length: 16 }, worker)
    // load until enough has been served (a busy machine serves fewer per second), then at least 1.5 s
    const loadStart = Date.now()
    while ((served.size < 300 || Date.now() - loadStart < 1_500) && Date.now() - loadStart < 20_000) await Bun.sleep(25)
    const killedAt = performance.now()
    first.proc.kill('SIGKILL')
    killing = true
    await first.proc.exited
    await Promise.all(workers)

    const second = await startGateway(dataDir, env)
    second.proc.kill('SIGTERM')
    await second.proc.exited
    const db = new Database(join(dataDir, 'tollgate.db'), { readonly: true })
    const rows = db.query("SELECT request_id AS id, quota FROM logs WHERE type = 2 AND username = 'payer'").all() as { id: string; quota: number }[]
    const balance = db.query("SELECT quota, used_quota AS used FROM users WHERE username = 'payer'").get() as { quota: number; used: number }
    db.close()

    const logged = new Set(rows.map((r) => r.id))
    const lost = [...served.entries()].filter(([id]) => !logged.has(id))
    const windowStart = killedAt - FLUSH_MS - SLACK_MS
    const servedInWindow = [...served.values()].filter((at) => at >= windowStart).length
    const charged = rows.reduce((sum, r) => sum + r.quota, 0)
    const oldestLostMs = lost.length ? Math.round(killedAt - Math.min(...lost.map(([, at]) => at))) : 0
    return { served: served.size, logged: rows.length, lost, oldestLostMs, lostBeforeWindow: lost.filter(([, at]) => at < windowStart).length, servedInWindow, charged, balance, quota }
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
  }
}

for (const writerThread of [false, true]) {
  test(`kill -9 under load (${writerThread ? 'writer thread' : 'log writer on the main thread'}): at most the last flush window is lost, rows and charges together`, async () => {
    const r = await crashUnderLoad(writerThread)
    console.log(`served ${r.served}, logged ${r.logged}, lost ${r.lost.length}, the oldest answered ${r.oldestLostMs} ms before the kill (served in the last ${FLUSH_MS} + ${SLACK_MS} ms: ${r.servedInWindow}); balance - logged charges: ${r.quota - r.balance.quota - r.charged}`)
    expect(r.served).toBeGreaterThan(200) // there was load
    expect(r.lostBeforeWindow).toBe(0) // everything answered before the last flush window is on disk
    expect(r.lost.length).toBeLessThanOrEqual(r.servedInWindow)
    // the balance moved by exactly what the surviving rows charged: no charge without its row, no row without its charge
    expect(r.charged).toBe(r.logged * PER_CALL)
    expect(r.quota - r.balance.quota).toBe(r.charged)
    expect(r.balance.used).toBe(r.charged)
  }, 120_000) // a hang detector: two starts and up to 20 s of load, on a machine that may be loaded
}
