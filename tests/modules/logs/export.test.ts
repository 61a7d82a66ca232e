/**
 * CSV export of the logs a filter selects (GET /api/log/export, /api/log/self/export): streamed page by page
 * (keyset), newest first, the user's own columns for users, formulas defused, one export at a time per user.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import type { NewLog } from '../../../src/db/repos'
import { Role } from '../../../src/db/repos/user-roles'
import { addUser, login } from '../../helpers/accounts'
import { startTestApp, type TestApp } from '../../helpers/test-app'

let app: TestApp
let admin: string
let alice: string
let aliceId: number
let carol: string

beforeAll(async () => {
  app = await startTestApp()
  await addUser(app, { username: 'boss', role: Role.admin })
  aliceId = (await addUser(app, { username: 'alice' })).id
  admin = await login(app, 'boss')
  alice = await login(app, 'alice')
  // 1,234 rows of alice's (more than two pages of the export), 10 of someone else's, one formula-looking content
  const rows: NewLog[] = Array.from({ length: 1244 }, (_, i) => ({
    createdAt: 1_760_000_000 + Math.floor(i / 3),
    type: 2,
    userId: i < 1234 ? aliceId : 999,
    username: i < 1234 ? 'alice' : 'zed',
    tokenName: 'ci',
    modelName: i % 2 ? 'gpt-4o' : 'claude-sonnet-4',
    channelId: 7,
    promptTokens: i,
    completionTokens: 1,
    quota: 500 * i,
    content: i === 5 ? '=HYPERLINK("http://x")' : '',
  }))
  await app.deps.repos.logs.insertMany(rows)
  // carol's 2,000 rows: four pages of the export
  const carolId = (await addUser(app, { username: 'carol' })).id
  carol = await login(app, 'carol')
  const many: NewLog[] = Array.from({ length: 2_000 }, (_, i) => ({ createdAt: 1_750_000_000 + i, type: 2, userId: carolId, username: 'carol', modelName: 'o3' }))
  await app.deps.repos.logs.insertMany(many)
})
afterAll(() => app.close())

const rowsOf = (csv: string) => csv.replace(/^\uFEFF/, '').trimEnd().split('\r\n').map((line) => line.split(','))

test('admin: every selected row, newest first, with the channel; the filter applies', async () => {
  const res = await app.fetch('/api/log/export?model_name=gpt-4o', { headers: { cookie: admin } })
  expect(res.status).toBe(200)
  expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8')
  expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="tollgate-logs-\d{4}-\d{2}-\d{2}\.csv"$/)
  const bytes = new Uint8Array(await res.arrayBuffer())
  expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]) // a byte-order mark, so Excel reads UTF-8
  const text = new TextDecoder().decode(bytes)
  expect(text.startsWith('time,type,username,token_name,model_name,upstream_model,group,channel,prompt_tokens')).toBe(true)
  const [header, ...rows] = rowsOf(text)
  expect(rows).toHaveLength(622) // odd i of 0..1243
  expect(rows.every((row) => row[header!.indexOf('model_name')] === 'gpt-4o' && row[header!.indexOf('channel')] === '7')).toBe(true)
  const prompts = rows.map((row) => Number(row[header!.indexOf('prompt_tokens')]))
  expect(prompts).toEqual([...prompts].sort((a, b) => b - a))
  expect(rows[0]![header!.indexOf('cost_usd')]).toBe(String(+((500 * 1243) / 500_000).toFixed(6)))
})

test('a user gets their own rows only, without the channel, formulas defused', async () => {
  const res = await app.fetch('/api/log/self/export', { headers: { cookie: alice } })
  expect(res.status).toBe(200)
  const text = await res.text()
  const [header, ...rows] = rowsOf(text)
  expect(header).not.toContain('channel')
  expect(rows).toHaveLength(1234)
  expect(new Set(rows.map((row) => row[header!.indexOf('username')]))).toEqual(new Set(['alice']))
  expect(text).toContain(`"'=HYPERLINK(""http://x"")"`)
})

test('admins only on /api/log/export; a bad filter is a 400 in the envelope', async () => {
  expect((await app.fetch('/api/log/export', { headers: { cookie: alice } })).status).toBe(403)
  const bad = await app.fetch('/api/log/self/export?start_timestamp=20&end_timestamp=10', { headers: { cookie: alice } })
  expect(bad.status).toBe(400)
  expect((await bad.json()).success).toBe(false)
})

test('one export at a time per user; a client that stops reading frees the slot', async () => {
  // the export's second page waits on a gate, so the first export is surely still running when the second asks
  const logs = app.deps.repos.logs
  const listBefore = logs.listBefore
  let open!: () => void
  const gate = new Promise<void>((resolve) => (open = resolve))
  logs.listBefore = async (filter, before, limit) => (before ? gate.then(() => listBefore(filter, before, limit)) : listBefore(filter, before, limit))
  try {
    const first = await app.fetch('/api/log/self/export', { headers: { cookie: carol } })
    const reader = first.body!.getReader()
    await reader.read()
    const second = await app.fetch('/api/log/self/export', { headers: { cookie: carol } })
    expect(second.status).toBe(429)
    expect(second.headers.get('retry-after')).toBe('5')
    expect((await second.json()).data.code).toBe('export_running')
    expect((await app.fetch('/api/log/self/export', { headers: { cookie: alice } })).status).toBe(200) // others are not held up
    await reader.cancel()
    open()
  } finally {
    logs.listBefore = listBefore
  }
  let status = 429
  for (let i = 0; i < 100 && status === 429; i++) {
    const again = await app.fetch('/api/log/self/export', { headers: { cookie: carol } })
    status = again.status
    await again.body?.cancel()
    if (status === 429) await Bun.sleep(20) // the server hears of the cancel once the socket's close arrives
  }
  expect(status).toBe(200)
})

test('the stream reads a page only when the previous one was taken, and says when it ends or is cancelled', async () => {
  const { logsCsv } = await import('../../../src/modules/logs/csv-export')
  let reads = 0
  let ended = 0
  const row = (id: number) => ({ id, createdAt: 1_760_000_000 - id, type: 2, userId: 1, username: 'u', tokenId: 0, tokenName: '', modelName: 'm', upstreamModel: '', channelId: 0, group: 'default', promptTokens: 0, completionTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0, quota: 0, useTimeMs: 0, firstTokenMs: 0, isStream: false, statusCode: 200, ip: '', requestId: '', content: '', other: '' })
  const repo = { listBefore: async (_f: unknown, before: { id: number } | undefined, limit: number) => (reads++, Array.from({ length: limit }, (_, i) => row((before?.id ?? 0) + i + 1))) }
  const stream = logsCsv(repo as never, {}, { admin: false, quotaPerUnit: 500_000, onEnd: () => ended++ })
  const reader = stream.getReader()
  await reader.read() // the header
  await reader.read() // page 1
  await Bun.sleep(0)
  expect(reads).toBeLessThanOrEqual(2) // an endless table, and yet no read runs ahead of the reader
  await reader.cancel()
  expect(ended).toBe(1)
})
