import { afterAll, beforeAll, expect, test } from 'bun:test'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstreams'
import type { TestApp } from '../helpers/test-app'
import { writeSqliteSource } from './fixtures/load'
import { oneApiRows, UPSTREAM_KEYS } from './fixtures/rows'
import { ONE_API_TABLES } from './fixtures/schema'
import { checkOneApiImport, importInto, startImported, tempDir } from './helpers'

let upstream: FakeUpstream
let dir: string
let app: TestApp | undefined
beforeAll(async () => {
  upstream = await startFakeUpstream({ keys: [UPSTREAM_KEYS.openai] })
  dir = tempDir('one')
})
afterAll(async () => {
  await app?.close()
  await upstream.stop()
  rmSync(dir, { recursive: true, force: true })
})

test('from a one-api SQLite file: detected by its columns, types renumbered, tokens, logs, a chat through its channel', async () => {
  const one = await oneApiRows(upstream.url)
  const source = join(dir, 'one-api.db')
  writeSqliteSource(source, ONE_API_TABLES, one.rows)
  const dataDir = join(dir, 'data')
  // the word says new-api; the columns say one-api, and they decide
  const result = await importInto(dataDir, source, ['--logs-since', '2000-01-01'])
  expect(result.exitCode).toBe(0)
  expect(result.report.source.schema).toBe('one-api')
  expect(result.report.source.evidence).toEqual(['tokens.subnet', 'tokens.models', 'channels.config', 'channels.system_prompt', 'logs.elapsed_time'])
  expect(result.report.issues.some((i) => i.table === 'source' && i.note.includes("one-api's"))).toBe(true)
  expect(result.report.issues.find((i) => i.table === 'channels' && i.field === 'type' && i.value === '36')!.note).toContain("new-api's (and Tollgate's) type 43")
  app = await startImported(dataDir)
  await checkOneApiImport(app, one, result.report)

  // one-api had no AutomaticDisableChannelEnabled set (its default: off), so the channels never auto-disable
  expect((await app.deps.repos.channels.findById(1))!.autoBan).toBe(0)
  upstream.setBehavior({ text: 'one-api upstream', usage: { input: 100, output: 10 } })
  const chat = await fetch(`${app.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer sk-${one.keys.alice}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }),
  })
  expect(chat.status).toBe(200)
  expect(upstream.requests.at(-1)!.headers.authorization).toBe(`Bearer ${UPSTREAM_KEYS.openai}`)
}, 60_000)
