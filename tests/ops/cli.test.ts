import { afterAll, beforeAll, describe, expect, spyOn, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { login, sessionCookie } from '../helpers/accounts'
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstreams'
import { call, ROOT_PASSWORD, startTestApp } from '../helpers/test-app'
import { until } from '../helpers/wait'
import { COMMANDS, runCli } from '../../src/cli'
import { VERSION } from '../../src/version'
import { FROM_SOURCE, prepareDataDir, serve, tollgate, type Prepared } from './process'

const UPSTREAM_KEY = 'sk-upstream-cli-0123456789abcdef'
let upstream: FakeUpstream
const temps: string[] = []
const temp = () => {
  const dir = mkdtempSync(join(tmpdir(), 'tollgate-cli-'))
  temps.push(dir)
  return dir
}

beforeAll(async () => {
  upstream = await startFakeUpstream({ keys: [UPSTREAM_KEY] })
  upstream.setBehavior({ text: 'Hello from upstream.', usage: { input: 9, output: 5 } })
})
afterAll(async () => {
  await upstream.stop()
  for (const dir of temps) rmSync(dir, { recursive: true, force: true })
})

const chat = (url: string, key: string) =>
  fetch(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }),
  })

/**
 * `tollgate <args>` in this process, as src/index.ts runs it (runCli): the exit code and what it printed. A
 * spawned `bun src/index.ts` costs about half a second of CPU to load; the command line's own logic needs no
 * process, so only a few runs below spawn one, to show the real exit code and streams.
 */
async function inProcess(args: string[], env: Record<string, string> = {}) {
  const stdout: string[] = []
  const stderr: string[] = []
  const log = spyOn(console, 'log').mockImplementation((...parts: unknown[]) => void stdout.push(`${parts.join(' ')}\n`))
  const error = spyOn(console, 'error').mockImplementation((...parts: unknown[]) => void stderr.push(`${parts.join(' ')}\n`))
  try {
    const code = await runCli(args, { PATH: process.env.PATH, HOME: tmpdir(), ...env })
    return { code, stdout: stdout.join(''), stderr: stderr.join('') }
  } finally {
    log.mockRestore()
    error.mockRestore()
  }
}

// from source: the rest of this file, like every spawned gateway by default, runs the compiled one (tests/ops/process.ts)
describe('the command line', () => {
  test('`<command> --help` for every command exits 0 with its usage; `--help` lists them all', async () => {
    const all = await tollgate(['--help'], { cmd: FROM_SOURCE })
    expect(all.code).toBe(0)
    for (const name of Object.keys(COMMANDS)) {
      expect(all.stdout).toContain(`  ${name} `)
      const help = await inProcess([name, '--help'])
      expect([name, help.code]).toEqual([name, 0])
      expect(help.stdout).toContain('Usage: tollgate')
    }
  }, 60_000)

  test('exit codes: an unknown command or option, or a missing argument, is 2 with a message on stderr', async () => {
    const unknown = await tollgate(['frobnicate'], { cmd: FROM_SOURCE })
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toContain('unknown command "frobnicate"')
    const option = await inProcess(['backup', 'x.db', '--bogus'])
    expect(option.code).toBe(2)
    expect(option.stderr).toContain('--bogus')
    const missing = await inProcess(['restore'])
    expect(missing.code).toBe(2)
    expect(missing.stderr).toContain('missing argument')
    const badEnv = await inProcess(['doctor'], { LOG_LEVEL: 'loud' })
    expect(badEnv.code).toBe(2)
    expect(badEnv.stderr).toContain('LOG_LEVEL')
  })

  test('version, --version and version --json', async () => {
    expect((await tollgate(['version'], { cmd: FROM_SOURCE })).stdout.trim()).toBe(VERSION)
    expect((await inProcess(['--version'])).stdout.trim()).toBe(VERSION)
    expect(JSON.parse((await inProcess(['version', '--json'])).stdout)).toMatchObject({ version: VERSION, bun: Bun.version })
  })
})

describe('backup and restore', () => {
  let prepared: Prepared
  beforeAll(async () => {
    prepared = await prepareDataDir(upstream.url, UPSTREAM_KEY)
    temps.push(prepared.dataDir)
  })

  test('a backup taken under load opens and passes integrity_check; its secrets file is 0600', async () => {
    const server = await serve(prepared.dataDir)
    const backups = temp()
    let requests = 0
    let failures = 0
    let running = true
    const root = await login({ fetch: (p: string, i?: RequestInit) => fetch(server.url + p, i) } as never)
    // the first priced request loads the tokenizer (~1 s): warm up before the load
    expect((await chat(server.url, prepared.key)).status).toBe(200)
    // 8 clients relaying, and management writes, while two backups are taken
    const clients = Array.from({ length: 8 }, async () => {
      while (running) {
        const response = await chat(server.url, prepared.key)
        await response.text()
        response.status === 200 ? requests++ : failures++
      }
    })
    const writer = (async () => {
      for (let i = 0; running; i++) {
        await fetch(`${server.url}/api/token/`, { method: 'POST', headers: { cookie: root, 'content-type': 'application/json' }, body: JSON.stringify({ name: `t${i}`, unlimited_quota: true }) })
      }
    })()
    // each backup starts once the load has written more: relayed requests with their log rows on disk
    const loggedRows = () => {
      const db = new Database(join(prepared.dataDir, 'tollgate.db'), { readonly: true })
      try {
        return (db.query('SELECT count(*) AS n FROM logs WHERE type = 2').get() as { n: number }).n
      } finally {
        db.close()
      }
    }
    const rowsBefore = loggedRows()
    await until(() => requests >= 10 && loggedRows() > rowsBefore, { what: 'relayed requests logged' })
    const first = await tollgate(['backup', join(backups, 'one.db'), '--data-dir', prepared.dataDir])
    const seen = requests
    await until(() => requests >= Math.max(seen + 10, 21), { what: 'more requests relayed' })
    const second = await tollgate(['backup', join(backups, 'two.db')], { env: { DATA_DIR: prepared.dataDir } })
    running = false
    await Promise.all([...clients, writer])
    expect(await server.stop()).toBe(0)
    expect([first.code, first.stderr]).toEqual([0, ''])
    expect(second.code).toBe(0)
    expect(requests).toBeGreaterThan(20)
    expect(failures).toBe(0)
    for (const name of ['one.db', 'two.db']) {
      const file = join(backups, name)
      expect(statSync(file).mode & 0o777).toBe(0o600)
      const db = new Database(file, { readonly: true })
      expect(db.query('PRAGMA integrity_check').get()).toEqual({ integrity_check: 'ok' })
      expect((db.query('SELECT count(*) AS n FROM users').get() as { n: number }).n).toBe(2)
      expect((db.query('SELECT count(*) AS n FROM logs WHERE type = 2').get() as { n: number }).n).toBeGreaterThan(0)
      db.close()
      const secrets = readFileSync(`${file}.secrets`, 'utf8')
      expect(statSync(`${file}.secrets`).mode & 0o777).toBe(0o600)
      expect(secrets).toContain(`CRYPTO_SECRET=${readFileSync(join(prepared.dataDir, 'crypto.secret'), 'utf8').trim()}`)
      expect(secrets).toContain(`SESSION_SECRET=${readFileSync(join(prepared.dataDir, 'session.secret'), 'utf8').trim()}`)
    }
    // the later backup saw more of the load than the earlier one
    const count = (f: string) => (new Database(join(backups, f), { readonly: true }).query('SELECT count(*) AS n FROM logs').get() as { n: number }).n
    expect(count('two.db')).toBeGreaterThanOrEqual(count('one.db'))
    // --no-secrets writes the database only; an existing file is not replaced without --force
    expect((await inProcess(['backup', join(backups, 'bare.db'), '--no-secrets', '--data-dir', prepared.dataDir])).code).toBe(0)
    expect(existsSync(join(backups, 'bare.db.secrets'))).toBe(false)
    const again = await inProcess(['backup', join(backups, 'bare.db'), '--data-dir', prepared.dataDir])
    expect(again.code).toBe(1)
    expect(again.stderr).toContain('exists')
    expect((await inProcess(['backup', join(backups, 'bare.db'), '--force', '--data-dir', prepared.dataDir])).code).toBe(0)
  }, 60_000)

  test('restore into a stopped, empty data directory brings back a working instance, secrets included', async () => {
    // a session from before the backup, to see it survive
    const before = await startTestApp({ ROOT_PASSWORD: '' }, undefined, prepared.dataDir)
    const cookie = await login(before, 'root')
    await before.close()
    const file = join(temp(), 'snapshot.db')
    expect((await tollgate(['backup', file, '--data-dir', prepared.dataDir])).code).toBe(0)

    const fresh = join(temp(), 'restored')
    const restored = await tollgate(['restore', file, '--data-dir', fresh])
    expect([restored.code, restored.stderr]).toEqual([0, ''])
    expect(restored.stdout).toContain('secrets restored')
    expect(statSync(join(fresh, 'crypto.secret')).mode & 0o777).toBe(0o600)
    expect(readFileSync(join(fresh, 'crypto.secret'), 'utf8')).toBe(readFileSync(join(prepared.dataDir, 'crypto.secret'), 'utf8'))

    // the restored instance, as its own process: the old session, the password, the API key and the sealed channel key all work
    const server = await serve(fresh)
    try {
      const self = await fetch(`${server.url}/api/user/self`, { headers: { cookie } })
      expect(self.status).toBe(200)
      const loggedIn = await fetch(`${server.url}/api/user/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'root', password: ROOT_PASSWORD }) })
      expect(loggedIn.status).toBe(200)
      const relayed = await chat(server.url, prepared.key)
      expect(relayed.status).toBe(200)
      expect(((await relayed.json()) as any).choices[0].message.content).toBe('Hello from upstream.')
      // the upstream got the decrypted channel key
      expect(upstream.requests.at(-1)!.headers.authorization).toBe(`Bearer ${UPSTREAM_KEY}`)
    } finally {
      expect(await server.stop()).toBe(0)
    }
  }, 60_000)

  test('restore refuses a data directory that is not empty, or whose gateway runs (exit 3), and a bad backup (exit 1)', async () => {
    const file = join(temp(), 'b.db')
    expect((await inProcess(['backup', file, '--data-dir', prepared.dataDir])).code).toBe(0)
    const occupied = await inProcess(['restore', file, '--data-dir', prepared.dataDir])
    expect(occupied.code).toBe(3)
    expect(occupied.stderr).toContain('not empty')
    const server = await serve(prepared.dataDir)
    const running = await inProcess(['restore', file, '--data-dir', prepared.dataDir])
    expect(await server.stop()).toBe(0)
    expect(running.code).toBe(3)
    expect(running.stderr).toContain('runs on')
    const junk = join(temp(), 'junk.db')
    writeFileSync(junk, 'this is not a database '.repeat(100))
    const bad = await inProcess(['restore', junk, '--data-dir', join(temp(), 'x')])
    expect(bad.code).toBe(1)
    // a backup whose migrations this version does not know
    const newer = join(temp(), 'newer.db')
    expect((await inProcess(['backup', newer, '--data-dir', prepared.dataDir])).code).toBe(0)
    const db = new Database(newer)
    db.query("INSERT INTO __tollgate_migrations (idx, tag, applied_at) VALUES (999, '0999_future', 0)").run()
    db.close()
    const refused = await inProcess(['restore', newer, '--data-dir', join(temp(), 'y')])
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain('newer Tollgate')
  }, 60_000)

  test('DATABASE_URL names the database for every command, as for the server', async () => {
    const file = join(temp(), 'via-url.db')
    const done = await tollgate(['backup', file, '--no-secrets'], { env: { DATABASE_URL: `sqlite://${join(prepared.dataDir, 'tollgate.db')}`, DATA_DIR: join(temp(), 'elsewhere') } })
    expect([done.code, done.stderr]).toEqual([0, ''])
    const refused = await inProcess(['backup', file], { DATABASE_URL: 'postgres://u:p@db/tollgate' })
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain('SQLite only')
    expect(refused.stderr).not.toContain('u:p')
  })
})

describe('reset-password and create-token, with the gateway running or not', () => {
  let prepared: Prepared
  beforeAll(async () => {
    prepared = await prepareDataDir(upstream.url, UPSTREAM_KEY)
    temps.push(prepared.dataDir)
  })

  test('on a running gateway: the new password works, the old one and every session of the user end', async () => {
    const server = await serve(prepared.dataDir)
    try {
      const logIn = (password: string) => fetch(`${server.url}/api/user/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'alice', password }) })
      const first = await logIn('user-password-123')
      expect(first.status).toBe(200)
      const cookie = sessionCookie(first.headers)
      expect((await fetch(`${server.url}/api/user/self`, { headers: { cookie } })).status).toBe(200)
      const reset = await tollgate(['reset-password', 'alice', '--data-dir', prepared.dataDir], { stdin: 'brand-new-password-1\n' })
      expect([reset.code, reset.stderr]).toEqual([0, ''])
      expect(reset.stdout).toContain('by the running gateway')
      expect((await fetch(`${server.url}/api/user/self`, { headers: { cookie } })).status).toBe(401)
      expect((await logIn('user-password-123')).status).toBe(401)
      expect((await logIn('brand-new-password-1')).status).toBe(200)
      // refusals: no such user, a password too short
      expect((await tollgate(['reset-password', 'nobody', '--data-dir', prepared.dataDir], { stdin: 'whatever-password\n' })).code).toBe(1)
      const short = await tollgate(['reset-password', 'alice', '--data-dir', prepared.dataDir], { stdin: 'short\n' })
      expect(short.code).toBe(1)
      expect(short.stderr).toContain('8 to 64')

      // create-token through the running gateway: its key works at once
      const created = await tollgate(['create-token', '--user', 'alice', '--name', 'from-cli', '--quota', '1000000', '--models', 'gpt-4o', '--data-dir', prepared.dataDir])
      expect(created.code).toBe(0)
      const key = created.stdout.trim()
      expect(key).toMatch(/^sk-[A-Za-z0-9]{40,}$/)
      expect((await chat(server.url, key)).status).toBe(200)
      expect((await inProcess(['create-token', '--user', 'nobody', '--data-dir', prepared.dataDir])).code).toBe(1)
      expect((await inProcess(['create-token', '--data-dir', prepared.dataDir])).code).toBe(2)
      expect((await inProcess(['create-token', '--user', 'alice', '--expires', '2001-01-01', '--data-dir', prepared.dataDir])).code).toBe(1)
      // the limit in US$, as the console takes it: made units at the instance's QuotaPerUnit (500,000 here)
      const usd = await inProcess(['create-token', '--user', 'alice', '--name', 'usd', '--quota-usd', '2.5', '--data-dir', prepared.dataDir])
      expect(usd.code).toBe(0)
      const db = new Database(join(prepared.dataDir, 'tollgate.db'), { readonly: true })
      expect(db.query("SELECT remain_quota, unlimited_quota FROM tokens WHERE name = 'usd'").get()).toEqual({ remain_quota: 1_250_000, unlimited_quota: 0 })
      db.close()
      expect((await inProcess(['create-token', '--user', 'alice', '--quota-usd', '-1', '--data-dir', prepared.dataDir])).code).toBe(2)
      expect((await inProcess(['create-token', '--user', 'alice', '--quota-usd', '1', '--quota', '5', '--data-dir', prepared.dataDir])).code).toBe(2)
    } finally {
      expect(await server.stop()).toBe(0)
    }
  }, 60_000)

  test('on a stopped gateway: the command opens the database itself', async () => {
    const reset = await tollgate(['reset-password', 'alice', '--data-dir', prepared.dataDir], { stdin: 'offline-password-2\r\n' })
    expect([reset.code, reset.stderr]).toEqual([0, ''])
    const created = await tollgate(['create-token', '--user', 'alice', '--unlimited', '--data-dir', prepared.dataDir])
    expect(created.code).toBe(0)
    const app = await startTestApp({ ROOT_PASSWORD: '' }, undefined, prepared.dataDir)
    try {
      expect((await call(app, 'POST', '/api/user/login', { username: 'alice', password: 'offline-password-2' })).status).toBe(200)
      const models = await app.fetch('/v1/models', { headers: { authorization: `Bearer ${created.stdout.trim()}` } })
      expect(models.status).toBe(200)
    } finally {
      await app.close()
    }
    const missing = await tollgate(['reset-password', 'alice', '--data-dir', join(temp(), 'nothing-here')], { stdin: 'offline-password-2\n' })
    expect(missing.code).toBe(1)
    expect(missing.stderr).toContain('no database')
  }, 60_000)
})

describe('doctor', () => {
  test('a healthy stopped instance: exit 0, every line ok or warn', async () => {
    const prepared = await prepareDataDir(upstream.url, UPSTREAM_KEY)
    temps.push(prepared.dataDir)
    const port = String(freePort())
    const result = await tollgate(['doctor', '--json', '--data-dir', prepared.dataDir], { env: { PORT: port } })
    const report = JSON.parse(result.stdout)
    expect(report.findings.filter((f: any) => f.verdict === 'fail')).toEqual([])
    expect(result.code).toBe(0)
    const checks = report.findings.map((f: any) => f.check)
    for (const check of ['data directory', 'database', 'migrations', 'session secret', 'crypto secret', 'channel keys', 'clock', 'port']) expect(checks).toContain(check)

    // what is wrong: a secret others can read, a crypto secret that is not the keys' one, a port taken
    chmodSync(join(prepared.dataDir, 'session.secret'), 0o644)
    writeFileSync(join(prepared.dataDir, 'crypto.secret'), `${'x'.repeat(43)}\n`, { mode: 0o600 })
    const taken = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response() })
    try {
      const sick = await inProcess(['doctor', '--data-dir', prepared.dataDir], { PORT: String(taken.port), HOST: '127.0.0.1' })
      expect(sick.code).toBe(1)
      expect(sick.stdout).toMatch(/FAIL {2}session secret .*readable by others/)
      expect(sick.stdout).toMatch(/FAIL {2}channel keys .*does not decrypt/)
      expect(sick.stdout).toMatch(/FAIL {2}port/)
    } finally {
      taken.stop(true)
    }
  }, 60_000)

  test('a running instance: reported as running, no port check', async () => {
    const prepared = await prepareDataDir(upstream.url, UPSTREAM_KEY)
    temps.push(prepared.dataDir)
    const server = await serve(prepared.dataDir)
    try {
      const result = await inProcess(['doctor', '--data-dir', prepared.dataDir])
      expect(result.code).toBe(0)
      expect(result.stdout).toContain(`running: pid ${server.proc.pid}`)
      expect(result.stdout).not.toContain('port ')
    } finally {
      await server.stop()
    }
    // a second gateway on the same data directory is refused
  }, 60_000)

  test('a second gateway on a data directory that one already serves refuses to start', async () => {
    const dir = temp()
    mkdirSync(dir, { recursive: true })
    const first = await serve(dir, { ROOT_PASSWORD: 'root-password-123' })
    try {
      const second = await tollgate(['serve', '--port', '0', '--data-dir', dir])
      expect(second.code).toBe(1)
      expect(second.stdout).toContain('already serves')
    } finally {
      expect(await first.stop()).toBe(0)
    }
  }, 60_000)
})

function freePort(): number {
  const probe = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response() })
  const port = probe.port!
  probe.stop(true)
  return port
}
