/**
 * `create-token` and `reset-password` on a PostgreSQL DATABASE_URL, as processes: the write lands in the shared
 * database (the key answers by its hash, the new password verifies, the sessions' version moved).
 */
import { SQL } from 'bun'
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openRepos } from '../../src/db'
import { keyHash } from '../../src/services/tokens/key'
import { hasPostgres, sharedPostgres, type PgServer } from '../helpers/pg-server'
import { tollgate } from '../ops/process'

const describePg = hasPostgres() ? describe : describe.skip

describePg('the account commands on PostgreSQL', () => {
  let server: PgServer
  let url: string
  let db: SQL
  beforeAll(async () => {
    server = await sharedPostgres()
    url = await server.createDatabase()
    const repos = await openRepos({ database: { kind: 'postgres', url, poolSize: 2, statementTimeoutMs: 30_000, holdTtlSeconds: 45 }, writerThread: false })
    await repos.users.insert({ username: 'alice', password: await Bun.password.hash('old-password-1', 'argon2id'), quota: 1000 })
    await repos.close()
    db = new SQL({ url, max: 1 })
  }, 60_000)
  afterAll(() => db?.close())

  const env = () => ({ DATABASE_URL: url, DATA_DIR: mkdtempSync(join(tmpdir(), 'tollgate-cmd-')), SESSION_SECRET: 's'.repeat(32), CRYPTO_SECRET: 'c'.repeat(32) })

  test('create-token writes a key into PostgreSQL, stored by its hash', async () => {
    const run = await tollgate(['create-token', '--user', 'alice', '--name', 'ci', '--quota', '500'], { env: env() })
    expect(run.stderr).toContain('created for alice')
    expect(run.code).toBe(0)
    const key = run.stdout.trim()
    expect(key).toStartWith('sk-')
    const hash = keyHash(key.slice('sk-'.length))
    const [row] = await db`SELECT t.name, t.remain_quota, t.unlimited_quota FROM tokens t JOIN users u ON u.id = t.user_id WHERE u.username = 'alice' AND t.key_hash = ${hash}`
    expect(row).toMatchObject({ name: 'ci', unlimited_quota: false })
    expect(Number(row.remain_quota)).toBe(500)
  })

  test('reset-password sets the new password and ends the sessions', async () => {
    const [before] = await db`SELECT session_version FROM users WHERE username = 'alice'`
    const run = await tollgate(['reset-password', 'alice'], { env: env(), stdin: 'new-password-22\n' })
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    const [after] = await db`SELECT password, session_version FROM users WHERE username = 'alice'`
    expect(await Bun.password.verify('new-password-22', after.password)).toBe(true)
    expect(after.session_version).toBe(before.session_version + 1)
  })
})
