/**
 * The importer takes only what the API would store (issue #28, item 10): quotas beyond 2^53−1 or negative,
 * a 5 MB username, a token that expires in the year 55,000, and ids that leave no room after them. What it
 * refuses or changes is in the report with the source row's id.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { MAX_KEPT_ID } from '../../src/import/ids'
import type { Issue, ReportJson } from '../../src/import/report'
import type { TestApp } from '../helpers/test-app'
import { writeSqliteSource } from './fixtures/load'
import { goBcrypt, newApiKey, uuid32, type Row } from './fixtures/rows'
import { NEW_API_TABLES } from './fixtures/schema'
import { hasPostgres, sharedPostgres } from '../helpers/pg-server'
import { startTestApp } from '../helpers/test-app'
import { importInto, loginAs, startImported, tempDir } from './helpers'

const MAX = Number.MAX_SAFE_INTEGER // 2^53−1
const BEYOND = '9007199254740993' // 2^53+1: read as 2^53, the same number as 2^53 itself
const now = Math.floor(Date.now() / 1000)
const dirs: string[] = []
let report: ReportJson
let app: TestApp
let sourcePath: string

const user = (over: Row): Row => ({ password: '', display_name: '', role: 1, status: 1, email: '', quota: 0, used_quota: 0, request_count: 0, group: 'default', inviter_id: 0, created_at: now, auth_version: 1, ...over })
const token = (over: Row): Row => ({ key: newApiKey(), status: 1, name: 'k', created_time: now, accessed_time: 0, expired_time: -1, remain_quota: 0, unlimited_quota: false, model_limits: '', allow_ips: '', used_quota: 0, group: '', ...over })
const issuesOf = (table: string, field: string): Issue[] => report.issues.filter((i) => i.table === table && i.field === field)

beforeAll(async () => {
  const source = tempDir('rules-src')
  const dataDir = tempDir('rules-data')
  dirs.push(source, dataDir)
  const path = (sourcePath = join(source, 'one-api.db'))
  writeSqliteSource(path, NEW_API_TABLES, {
    users: [
      user({ id: 1, username: 'root', password: await goBcrypt('root-pass-1'), role: 100 }),
      user({ id: 2, username: 'debtor', quota: -500, used_quota: 900 }),
      user({ id: 3, username: 'huge', quota: 1e300 }),
      user({ id: 4, username: 'x'.repeat(5 * 1024 * 1024) }),
      user({ id: MAX, username: 'maxed', password: await goBcrypt('maxed-pass-1'), quota: 1000 }),
      user({ id: BEYOND, username: 'beyond', quota: 5 }),
    ],
    tokens: [
      token({ id: 1, user_id: MAX, remain_quota: -7, name: 'maxed-key' }),
      token({ id: 2, user_id: 1, expired_time: now * 1000, name: 'millis' }),
      token({ id: 3, user_id: 1, name: 'n'.repeat(51) }),
      token({ id: MAX, user_id: 1, name: 'last-token' }),
    ],
    redemptions: [
      { id: 1, user_id: 1, key: uuid32(), status: 1, name: 'minus', quota: -5, created_time: now, redeemed_time: 0, used_user_id: 0, expired_time: 0 },
      { id: 2, user_id: 1, key: uuid32(), status: 1, name: 'fine', quota: 5, created_time: now, redeemed_time: 0, used_user_id: 0, expired_time: 0 },
    ],
    logs: [
      { id: 1, user_id: MAX, token_id: 1, channel_id: 0, created_at: now - 60, type: 2, quota: 40, username: 'maxed', model_name: 'm', other: '' },
      { id: 2, user_id: 1, token_id: MAX, channel_id: 0, created_at: now - 50, type: 2, quota: 1e300, username: 'root', model_name: 'm', other: '' },
    ],
  })
  const result = await importInto(dataDir, path, ['--logs-since', String(now - 3600)])
  expect(result.exitCode).toBe(0)
  report = result.report
  app = await startImported(dataDir)
}, 60_000)

afterAll(async () => {
  await app?.close()
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

describe('values the API refuses are not imported, and the report says which row and why', () => {
  test('a quota beyond 2^53−1, a 5 MB username and an id beyond 2^53−1: the user is refused', async () => {
    const users = app.deps.repos.users
    expect(await users.findByUsername('huge')).toBeUndefined()
    expect(await users.findByUsername('beyond')).toBeUndefined()
    expect(await users.count()).toBe(3) // root, debtor, maxed
    expect(issuesOf('users', 'quota').find((i) => i.note.includes('not imported'))!.ids).toEqual([3])
    const name = issuesOf('users', 'username')[0]!
    expect(name.ids).toEqual([4])
    expect(name.value).toBe(`(${5 * 1024 * 1024} characters)`) // the length, never the text
    expect(issuesOf('users', 'id')[0]!.note).toContain('not imported')
    expect(report.tables.users!.skipped_by_reason['refused by the API rules']).toBe(3)
    expect(JSON.stringify(report).length).toBeLessThan(100_000)
  })

  test('a negative balance is imported as 0 (the API never stores one), reported as changed', async () => {
    expect((await app.deps.repos.users.findByUsername('debtor'))!.quota).toBe(0)
    expect(issuesOf('users', 'quota').find((i) => i.mapped_to === '0')).toMatchObject({ value: '-500', ids: [2] })
    const maxedToken = (await app.deps.repos.tokens.findById(1))!
    expect(maxedToken.remainQuota).toBe(0)
  })

  test("tokens and codes: a millisecond expiry, a name over the form's 50 characters, a quota below 1 are refused", async () => {
    expect(issuesOf('tokens', 'expired_time')[0]!.ids).toEqual([2])
    expect(issuesOf('tokens', 'name')[0]!.ids).toEqual([3])
    expect(await app.deps.repos.tokens.findById(2)).toBeUndefined()
    expect(await app.deps.repos.tokens.findById(3)).toBeUndefined()
    expect(issuesOf('redemptions', 'quota')[0]!.ids).toEqual([1])
    expect(report.tables.redemptions).toMatchObject({ imported: 1, skipped: 1 })
  })

  test('a log row with a quota beyond 2^53−1 is refused; the others come', () => {
    expect(issuesOf('logs', 'quota')[0]!.ids).toEqual([2])
    expect(report.tables.logs).toMatchObject({ read: 2, imported: 1, skipped: 1 })
  })
})

describe('an id that leaves no room after it is given a new one, and what points at it follows', () => {
  test('user 2^53−1 gets the next free id; its token and logs follow; the user logs in', async () => {
    const maxed = (await app.deps.repos.users.findByUsername('maxed'))!
    expect(maxed.id).toBe(5) // after the largest id kept (4, refused but reserved)
    expect(issuesOf('users', 'id').find((i) => i.mapped_to !== undefined)).toMatchObject({ value: String(MAX), mapped_to: '5', ids: [MAX] })
    expect((await app.deps.repos.tokens.findById(1))!.userId).toBe(5)
    const last = issuesOf('tokens', 'id')[0]!
    expect(last).toMatchObject({ value: String(MAX), ids: [MAX] })
    await app.deps.repos.drainMetering()
    const logs = app.db.$client.query<{ user_id: number; token_id: number }, []>('SELECT user_id, token_id FROM logs ORDER BY created_at').all()
    expect(logs).toEqual([{ user_id: 5, token_id: 1 }])
    expect((await loginAs(app, 'maxed', 'maxed-pass-1')).status).toBe(200)
  })

  test('the next two new users get two ids, both exact in JavaScript and below the kept range', async () => {
    const a = await app.deps.repos.users.insert({ username: 'new-one', password: 'x' })
    const b = await app.deps.repos.users.insert({ username: 'new-two', password: 'x' })
    expect(a.id).not.toBe(b.id)
    for (const id of [a.id, b.id]) expect(id).toBeLessThanOrEqual(MAX_KEPT_ID)
    expect((await app.deps.repos.users.findById(a.id))!.username).toBe('new-one')
    expect((await app.deps.repos.users.findById(b.id))!.username).toBe('new-two')
  })
})

describe.skipIf(!hasPostgres())('into PostgreSQL, whose ids stop at 2^31−1', () => {
  test('the same source imports: 2^53−1 gets the next free id, its token and logs follow, new users get their own ids', async () => {
    const url = await (await sharedPostgres()).createDatabase()
    const dataDir = tempDir('rules-pg')
    dirs.push(dataDir)
    const env = { DATABASE_URL: url, CRYPTO_SECRET: 'c'.repeat(44) }
    const result = await importInto(dataDir, sourcePath, ['--logs-since', String(now - 3600)], [], env)
    expect([result.exitCode, result.report.error]).toEqual([0, null])
    const pg = await startTestApp({ ...env, ROOT_PASSWORD: '' }, undefined, dataDir)
    try {
      const maxed = (await pg.deps.repos.users.findByUsername('maxed'))!
      expect(maxed.id).toBe(5)
      expect((await pg.deps.repos.tokens.findById(1))!.userId).toBe(5)
      const a = await pg.deps.repos.users.insert({ username: 'pg-new-one', password: 'x' })
      const b = await pg.deps.repos.users.insert({ username: 'pg-new-two', password: 'x' })
      expect(new Set([a.id, b.id, maxed.id, 1, 2]).size).toBe(5)
      for (const id of [a.id, b.id]) expect(id).toBeLessThanOrEqual(MAX_KEPT_ID)
    } finally {
      await pg.close()
    }
  }, 60_000)
})
