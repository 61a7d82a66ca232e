import { Database } from 'bun:sqlite'
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { existsSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { COMMANDS } from '../../src/cli'
import { EXIT } from '../../src/cli/args'
import { parseCli } from '../../src/config'
import { parseImportArgs, parseSince } from '../../src/import/cli'
import { writeSqliteSource } from './fixtures/load'
import { newApiRows } from './fixtures/rows'
import { NEW_API_TABLES } from './fixtures/schema'
import { dumpDb, importInto, tempDir } from './helpers'

let dir: string
let source: string
beforeAll(async () => {
  dir = tempDir('cli')
  source = join(dir, 'one-api.db')
  writeSqliteSource(source, NEW_API_TABLES, (await newApiRows('http://127.0.0.1:9')).rows)
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

test("`tollgate import …` is its own command in src/cli; the server's flag parser does not know the word", () => {
  expect(Object.keys(COMMANDS)).toContain('import')
  expect(() => parseCli(['import', 'new-api', '--from', 'x.db'], {})).toThrow('unknown argument: import')
  expect(parseCli(['--port', '1'], {}).kind).toBe('serve')
})

test('arguments: defaults from DATA_DIR, the report next to the database, every flag', () => {
  const command = parseImportArgs(['new-api', '--from', 'src.db', '--dry-run', '--merge', '--logs-since=2025-01-31', '--report', '/tmp/r.json', '--logs-from', 'logs.db'], { DATA_DIR: '/srv/tollgate' })
  expect(command).toEqual({
    kind: 'run',
    options: {
      claimed: 'new-api', from: 'src.db', logsFrom: 'logs.db', dataDir: '/srv/tollgate', sqlitePath: '/srv/tollgate/tollgate.db', cryptoSecret: undefined,
      dryRun: true, merge: true, logsSince: Date.UTC(2025, 0, 31) / 1000, reportPath: '/tmp/r.json',
    },
  })
  const plain = parseImportArgs(['one-api', '--from', 'src.db', '--data-dir', '/d'], { SQLITE_PATH: '/elsewhere/t.db', CRYPTO_SECRET: 's'.repeat(40) })
  expect(plain).toMatchObject({ kind: 'run', options: { claimed: 'one-api', sqlitePath: '/elsewhere/t.db', reportPath: '/d/import-report.json', cryptoSecret: 's'.repeat(40), logsSince: undefined, dryRun: false } })
  expect(parseImportArgs([], {})).toEqual({ kind: 'help' })
  expect(parseImportArgs(['new-api', '--help'], {})).toEqual({ kind: 'help' })
})

test('bad arguments are refused with a message that says what to do', () => {
  expect(() => parseImportArgs(['new-api'], {})).toThrow(/--from <source> is required/)
  expect(() => parseImportArgs(['litellm', '--from', 'x'], {})).toThrow(/unknown source kind/)
  expect(() => parseImportArgs(['new-api', '--from', 'x', '--force'], {})).toThrow(/unknown option --force/)
  expect(() => parseImportArgs(['new-api', '--from'], {})).toThrow(/--from needs a value/)
  expect(() => parseImportArgs(['new-api', '--from', 'x', '--logs-since', 'yesterday'], {})).toThrow(/not a date/)
  expect(() => parseImportArgs(['new-api', '--from', 'x', '--logs-from', 'logs.db'], {})).toThrow(/only matters with --logs-since/)
  expect(() => parseImportArgs(['new-api', '--from', 'redis://h/0'], {})).toThrow(/unsupported database scheme "redis:"/)
  expect(() => parseImportArgs(['new-api', '--from', 'x', '--logs-since', '2025-01-01', '--logs-from', 'mongodb://h/db'], {})).toThrow(/unsupported database scheme "mongodb:"/)
  // a PostgreSQL target needs the CRYPTO_SECRET every node runs with: never a key sealed with a file of this machine
  for (const env of [{ DATABASE_URL: 'postgres://t:secret@h/db' }, { DATABASE_URL: 'postgresql://t@h/db', SQLITE_PATH: '/tmp/t.db' }]) {
    expect(() => parseImportArgs(['new-api', '--from', 'x'], env)).toThrow(/DATABASE_URL names a PostgreSQL database: set CRYPTO_SECRET/)
  }
  expect(() => parseImportArgs(['new-api', '--from', 'x'], { DATABASE_URL: 'postgres://t:secret@h/db' })).not.toThrow(/secret@/)
  expect(() => parseImportArgs(['new-api', '--from', 'x'], { DATABASE_URL: 'mysql://t@h/db' })).toThrow(/names a mysql database/)
})

test('a postgres:// DATABASE_URL is the target, with the nodes’ CRYPTO_SECRET, even beside SQLITE_PATH', () => {
  const env = { DATABASE_URL: 'postgresql://t:secret@h/db', SQLITE_PATH: '/tmp/t.db', CRYPTO_SECRET: 's'.repeat(40) }
  expect(parseImportArgs(['new-api', '--from', 'x.db'], env)).toMatchObject({ kind: 'run', options: { databaseUrl: 'postgresql://t:secret@h/db', cryptoSecret: 's'.repeat(40) } })
})

test('a SQLite DATABASE_URL is the target, as it is for the server', () => {
  for (const url of ['sqlite:///srv/t/tollgate.db', 'file:/srv/t/tollgate.db', '/srv/t/tollgate.db']) {
    expect(parseImportArgs(['new-api', '--from', 'x.db', '--data-dir', '/d'], { DATABASE_URL: url })).toMatchObject({ kind: 'run', options: { sqlitePath: '/srv/t/tollgate.db', dataDir: '/d' } })
  }
})

test('--logs-since: a date (UTC midnight), an ISO time, unix seconds', () => {
  expect(parseSince('2025-01-31')).toBe(1738281600)
  expect(parseSince('2025-01-31T08:00:00+08:00')).toBe(1738281600)
  expect(parseSince('1738281600')).toBe(1738281600)
})

test('the real entry point: `bun src/index.ts import new-api …` prints the report and where it is', async () => {
  const dataDir = join(dir, 'data-bin')
  const proc = Bun.spawn(['bun', 'src/index.ts', 'import', 'new-api', '--from', source, '--data-dir', dataDir], {
    cwd: join(import.meta.dir, '../..'),
    stdout: 'pipe',
    stderr: 'pipe',
    env: { ...process.env, DATABASE_URL: '', CRYPTO_SECRET: '' },
  })
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited])
  expect(err).toBe('')
  expect(code).toBe(0)
  expect(out).toMatch(/\nusers +6 +5 +1 +\(1 soft-deleted\)\n/)
  expect(out).toMatch(/\nlogs +5 +- +- +\(not imported: no --logs-since\)\n/)
  expect(out).not.toContain('aws-bedrock')
  expect(out).toContain(`report: ${join(dataDir, 'import-report.json')}`)
  expect(out).toContain('outcome: committed')
  expect(JSON.parse(readFileSync(join(dataDir, 'import-report.json'), 'utf8')).outcome).toBe('committed')
  expect(existsSync(join(dataDir, 'crypto.secret'))).toBe(true)

  const again = Bun.spawnSync(['bun', 'src/index.ts', 'import', 'new-api', '--from', source, '--data-dir', dataDir], { cwd: join(import.meta.dir, '../..'), env: { ...process.env, DATABASE_URL: '' } })
  expect(again.exitCode).toBe(3) // refused: not empty (src/cli's EXIT.refused)
  const bad = Bun.spawnSync(['bun', 'src/index.ts', 'import', 'new-api', '--from', join(dir, 'missing.db'), '--data-dir', join(dir, 'x')], { cwd: join(import.meta.dir, '../..'), env: { ...process.env, DATABASE_URL: '' } })
  expect(bad.exitCode).toBe(1)
  expect(bad.stdout.toString()).toContain('no such SQLite file')
}, 30_000)

/** `bun src/index.ts import …` as a process (async: Bun.spawnSync would hold the event loop). */
async function runBin(args: string[], env: Record<string, string>): Promise<{ code: number; out: string; err: string }> {
  const proc = Bun.spawn(['bun', 'src/index.ts', 'import', ...args], { cwd: join(import.meta.dir, '../..'), stdout: 'pipe', stderr: 'pipe', env: { ...process.env, DATABASE_URL: '', CRYPTO_SECRET: '', SQLITE_PATH: '', ...env } })
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited])
  return { code, out, err }
}

test('a postgres:// DATABASE_URL target without CRYPTO_SECRET is refused before anything is read or written: exit 2, a message that says what to do', async () => {
  const dataDir = join(dir, 'data-pg-target')
  const refused = await runBin(['new-api', '--from', source, '--data-dir', dataDir], { DATABASE_URL: 'postgres://tollgate:pw-secret@db.internal:5432/tollgate' })
  expect(refused.code).toBe(EXIT.usage)
  expect(refused.out).toBe('')
  expect(refused.err).toContain('DATABASE_URL names a PostgreSQL database: set CRYPTO_SECRET to the one the nodes run with')
  expect(refused.err).not.toContain('pw-secret')
  expect(existsSync(dataDir)).toBe(false) // no database, no secret, no report
  // other command-line mistakes share the exit code
  expect((await runBin(['new-api', '--from', source, '--force'], {})).code).toBe(EXIT.usage)
  expect((await runBin(['new-api', '--from', 'redis://h/0', '--data-dir', dataDir], {})).code).toBe(EXIT.usage)
  expect(existsSync(dataDir)).toBe(false)
}, 30_000)

test('DATABASE_URL=sqlite:///… is the target file; DATA_DIR keeps the secret and the report', async () => {
  const dataDir = join(dir, 'data-url')
  const target = join(dir, 'elsewhere', 'gateway.db')
  const result = await importInto(dataDir, source, [], [], { DATABASE_URL: `sqlite://${target}` })
  expect(result.exitCode).toBe(0)
  expect(result.report.target.sqlite_path).toBe(target)
  expect(existsSync(join(dataDir, 'tollgate.db'))).toBe(false)
  expect(existsSync(join(dataDir, 'crypto.secret'))).toBe(true)
  const db = new Database(target, { readonly: true })
  expect(db.query<{ n: number }, []>('SELECT count(*) AS n FROM users').get()!.n).toBe(5)
  db.close()
})

test("logs kept in another database (new-api's LOG_SQL_DSN) come with --logs-from", async () => {
  const fixture = await newApiRows('http://127.0.0.1:9')
  const { logs, ...rest } = fixture.rows
  const main = join(dir, 'main-nologs.db')
  const logDb = join(dir, 'logs-only.db')
  writeSqliteSource(main, NEW_API_TABLES.filter((t) => t.name !== 'logs'), rest)
  writeSqliteSource(logDb, NEW_API_TABLES.filter((t) => t.name === 'logs'), { logs: logs! })
  const without = await importInto(join(dir, 'data-nologs'), main, ['--logs-since', '2000-01-01', '--dry-run'])
  expect(without.report.issues.find((i) => i.table === 'logs')!.note).toContain('--logs-from')
  const result = await importInto(join(dir, 'data-logs'), main, ['--logs-since', '2000-01-01', '--logs-from', logDb])
  expect(result.exitCode).toBe(0)
  expect(result.report.tables.logs).toMatchObject({ read: 5, imported: 5 })
  expect(result.report.tables.quota_data).toMatchObject({ read: 4, imported: 2 }) // new-api keeps quota_data in the main database
})

test('--merge refuses a crypto secret other than the one the target\'s channel keys were sealed with', async () => {
  const dataDir = join(dir, 'data-secret')
  expect((await importInto(dataDir, source)).exitCode).toBe(0) // seals with DATA_DIR/crypto.secret
  const other = await importInto(dataDir, source, ['--merge'], [], { CRYPTO_SECRET: 'another-secret-of-at-least-32-characters' })
  expect(other.exitCode).toBe(1)
  expect(other.report.error).toContain('encrypted with another crypto secret')
  const same = await importInto(dataDir, source, ['--merge', '--dry-run'])
  expect(same.exitCode).toBe(0)
})

test('a database that is neither new-api nor one-api is refused before anything is written', async () => {
  const other = join(dir, 'other.db')
  const db = new Database(other, { create: true })
  db.exec('CREATE TABLE users (id integer primary key, name text); CREATE TABLE tokens (id integer); CREATE TABLE channels (id integer)')
  db.close()
  const dataDir = join(dir, 'data-other')
  const result = await importInto(dataDir, other)
  expect(result.exitCode).toBe(1)
  expect(result.report.outcome).toBe('failed')
  expect(result.report.error).toContain('refusing to guess its channel type numbers')
  expect(existsSync(join(dataDir, 'tollgate.db'))).toBe(false)
})

test('an import that fails half-way leaves the target as it was: one transaction', async () => {
  // logs kept apart (new-api's LOG_SQL_DSN) in a table without created_at: reading them fails after the
  // users, tokens, channels, codes and options were written
  const logs = join(dir, 'bad-logs.db')
  const db = new Database(logs, { create: true })
  db.exec('CREATE TABLE logs (id integer primary key, content text); INSERT INTO logs (content) VALUES (\'x\')')
  db.close()
  const dataDir = join(dir, 'data-atomic')
  const empty = await importInto(dataDir, source, ['--dry-run']) // the same data dir, nothing in it yet
  expect(empty.exitCode).toBe(0)
  const result = await importInto(dataDir, source, ['--logs-since', '2000-01-01', '--logs-from', logs])
  expect(result.exitCode).toBe(1)
  expect(result.report.outcome).toBe('failed')
  expect(result.report.error).toContain('created_at')
  const after = new Database(join(dataDir, 'tollgate.db'), { readonly: true })
  for (const table of ['users', 'tokens', 'channels', 'abilities', 'redemptions', 'options', 'logs']) {
    expect([table, after.query<{ n: number }, []>(`SELECT count(*) AS n FROM ${table}`).get()!.n]).toEqual([table, 0])
  }
  after.close()
  expect(dumpDb(join(dataDir, 'tollgate.db'))).toContain('__tollgate_migrations') // migrated, and nothing more
})
