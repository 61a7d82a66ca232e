/**
 * new-api's per-channel overrides come over instead of being reported and dropped: param_override, header_override,
 * status_code_mapping, and `setting`'s proxy and system prompt; a value the channel API would refuse is dropped and
 * named in the report.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import type { ImportResult } from '../../src/import/run-import'
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstreams'
import type { TestApp } from '../helpers/test-app'
import { writeSqliteSource } from './fixtures/load'
import { newApiRows, type Row } from './fixtures/rows'
import { NEW_API_TABLES } from './fixtures/schema'
import { importInto, startImported, tempDir } from './helpers'

const KEY = 'sk-imported-override-key-0123456789'
let up: FakeUpstream
let dir: string
let result: ImportResult
let app: TestApp

const channel = (id: number, over: Row): Row => ({
  id, type: 1, name: `ch-${id}`, key: KEY, models: `m-${id}`, group: 'default', status: 1, priority: 0, weight: 1,
  auto_ban: 1, created_time: 1_700_000_000, channel_info: '{"is_multi_key":false}', ...over,
})

beforeAll(async () => {
  dir = tempDir('overrides')
  up = await startFakeUpstream({ keys: [KEY] })
  const fixture = await newApiRows('http://127.0.0.1:9')
  const channels = [
    channel(1, {
      base_url: up.url,
      param_override: JSON.stringify({ operations: [{ path: 'temperature', mode: 'set', value: 0.1 }] }),
      header_override: JSON.stringify({ 'X-Team': 'infra-{api_key}' }),
      status_code_mapping: '{"400":"500"}',
      setting: JSON.stringify({ system_prompt: 'From new-api.', system_prompt_override: true, proxy: 'http://u:pw@proxy.example.com:3128', force_format: true }),
      settings: JSON.stringify({ upstream_model_update_check_enabled: true, upstream_model_update_ignored_models: ['regex:^o1'], upstream_model_update_last_detected_models: ['gpt-9'] }),
    }),
    channel(2, { base_url: up.url, param_override: '{"operations":[{"mode":"explode"}]}', status_code_mapping: '{"400":"oops"}', setting: JSON.stringify({ proxy: 'ftp://x' }) }),
  ]
  const source = join(dir, 'new-api.db')
  writeSqliteSource(source, NEW_API_TABLES, { ...fixture.rows, channels, abilities: [] })
  result = await importInto(join(dir, 'data'), source)
  expect(result.report.error).toBeNull()
  app = await startImported(join(dir, 'data'))
  await app.deps.options.set('SelfUseModeEnabled', true)
}, 60_000)
afterAll(async () => {
  await app.close()
  await up.stop()
  rmSync(dir, { recursive: true, force: true })
})

const issues = (id: number) => result.report.issues.filter((i) => i.table === 'channels' && i.ids.includes(id)).map((i) => i.field)

test('the overrides are stored as the channel API would store them; only what Tollgate does not read is reported', async () => {
  const row = (await app.deps.repos.channels.findById(1))!
  expect(row).toMatchObject({ paramOverride: '{"operations":[{"path":"temperature","mode":"set","value":0.1}]}', headerOverride: '{"X-Team":"infra-{api_key}"}', statusCodeMapping: '{"400":"500"}' })
  expect(JSON.parse(row.setting)).toEqual({ system_prompt: 'From new-api.', system_prompt_override: true, proxy: 'http://u:pw@proxy.example.com:3128' })
  expect(issues(1)).toEqual(['setting.force_format'])
  expect(JSON.stringify(result.report)).not.toContain('pw@')
})

test('values the API would refuse are dropped, each named', async () => {
  const row = (await app.deps.repos.channels.findById(2))!
  expect(row).toMatchObject({ paramOverride: '', statusCodeMapping: '', setting: '' })
  expect(issues(2).sort()).toEqual(['param_override', 'setting.proxy', 'status_code_mapping'])
})


test("new-api's upstream model check fields of `settings` come over, not reported", async () => {
  const row = (await app.deps.repos.channels.findById(1))!
  expect(JSON.parse(row.settings)).toMatchObject({ upstream_model_update_check_enabled: true, upstream_model_update_ignored_models: ['regex:^o1'], upstream_model_update_last_detected_models: ['gpt-9'] })
  expect(issues(1).filter((field) => field.startsWith('settings.'))).toEqual([])
  expect((await app.deps.repos.channels.findById(2))!.settings).toBe('')
})
