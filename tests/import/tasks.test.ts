/**
 * What new-api's gateway for agents and media carries over through `tollgate import`: the prices by prompt length
 * (`ModelTierPricing`, checked model by model as PUT /api/option/ checks them: a bad model is dropped and named),
 * and its Midjourney and Suno tasks (`midjourneys`, `tasks`) for the users that came over: finished ones as they
 * ended, with their results; running ones failed and not refunded, never polled; video tasks of the vendors served kept, others reported and left.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstreams'
import { hasPostgres, sharedPostgres } from '../helpers/pg-server'
import { startTestApp, type TestApp } from '../helpers/test-app'
import { writeSqliteSource } from './fixtures/load'
import { newApiRows } from './fixtures/rows'
import { NEW_API_TABLES, type Table } from './fixtures/schema'
import { importInto, startImported, tempDir } from './helpers'

const TIERS = {
  'claude-sonnet-4-5': { enabled: true, basis: 'prompt_tokens', tiers: [{ min_tokens: 0, max_tokens: 200_000, input_price: 3, completion_price: 15, cache_read_price: 0.3 }, { min_tokens: 200_000, input_price: 6, completion_price: 22.5 }] },
  // a gap between the tiers: refused by the API, so dropped here
  'gemini-2.5-pro': { enabled: true, basis: 'prompt_tokens', tiers: [{ min_tokens: 0, max_tokens: 100, input_price: 1.25, completion_price: 10 }, { min_tokens: 200, input_price: 2.5, completion_price: 15 }] },
}

const col = (name: string, type: Table['columns'][number]['type']) => ({ name, type })
/** new-api's model/midjourney.go and model/task.go, as GORM creates them on SQLite. */
const TASK_TABLES: Table[] = [
  {
    name: 'midjourneys',
    columns: [
      col('id', 'pk'), col('code', 'bigint'), col('user_id', 'bigint'), col('action', 'varchar(40)'), col('mj_id', 'text'), col('prompt', 'text'), col('prompt_en', 'text'), col('description', 'text'), col('state', 'text'),
      col('submit_time', 'bigint'), col('start_time', 'bigint'), col('finish_time', 'bigint'), col('image_url', 'text'), col('video_url', 'text'), col('video_urls', 'text'), col('status', 'varchar(20)'), col('progress', 'varchar(30)'),
      col('fail_reason', 'text'), col('channel_id', 'bigint'), col('quota', 'bigint'), col('token_id', 'bigint'), col('billing_channel_id', 'bigint'), col('buttons', 'text'), col('properties', 'text'),
    ],
  },
  {
    name: 'tasks',
    columns: [
      col('id', 'pk'), col('created_at', 'bigint'), col('updated_at', 'bigint'), col('task_id', 'varchar(191)'), col('platform', 'varchar(30)'), col('user_id', 'bigint'), col('group', 'varchar(50)'), col('channel_id', 'bigint'),
      col('quota', 'bigint'), col('action', 'varchar(40)'), col('status', 'varchar(20)'), col('fail_reason', 'text'), col('submit_time', 'bigint'), col('start_time', 'bigint'), col('finish_time', 'bigint'), col('progress', 'varchar(20)'),
      col('properties', 'json'), col('private_data', 'json'), col('data', 'json'),
    ],
  },
]
const nowS = Math.floor(Date.now() / 1000)
const nowMs = nowS * 1000
const mj = (id: number, patch: Record<string, unknown>) => ({
  id, code: 1, user_id: 2, action: 'IMAGINE', mj_id: `17000000000000${id}`, prompt: 'a cat', prompt_en: 'a cat', description: '/imagine a cat', state: '', submit_time: nowMs - 60_000, start_time: nowMs - 50_000,
  finish_time: 0, image_url: '', video_url: '', video_urls: '', status: 'IN_PROGRESS', progress: '40%', fail_reason: '', channel_id: 1, quota: 50_000, token_id: 1, billing_channel_id: 0, buttons: '', properties: '', ...patch,
})
const task = (id: number, patch: Record<string, unknown>) => ({
  id, created_at: nowS - 60, updated_at: nowS - 30, task_id: `task_${id}`, platform: 'suno', user_id: 2, group: 'default', channel_id: 1, quota: 50_000, action: 'MUSIC', status: 'IN_PROGRESS', fail_reason: '',
  submit_time: nowS - 60, start_time: nowS - 50, finish_time: 0, progress: '30%', properties: '{"input":"a song about tolls"}', private_data: '', data: 'null', ...patch,
})
const BUTTONS = [{ customId: 'MJ::JOB::upsample::1::abc', emoji: '', label: 'U1', type: 2, style: 2 }]

let upstream: FakeUpstream
let dir: string
let app: TestApp
let report: any
let source: string
beforeAll(async () => {
  upstream = await startFakeUpstream({ keys: [] })
  const fixture = await newApiRows(upstream.url)
  dir = tempDir('tasks')
  source = join(dir, 'new-api.db')
  writeSqliteSource(source, [...NEW_API_TABLES, ...TASK_TABLES], {
    ...fixture.rows,
    midjourneys: [
      mj(1, { status: 'SUCCESS', progress: '100%', finish_time: nowMs - 10_000, image_url: 'https://cdn.example.com/cat.png', buttons: JSON.stringify(BUTTONS), properties: '{"finalPrompt":"a cat"}' }),
      mj(2, { status: 'FAILURE', progress: '100%', finish_time: nowMs - 10_000, fail_reason: 'banned prompt', action: 'UPSCALE' }),
      mj(3, {}), // still running
      mj(4, { user_id: 5, status: 'SUCCESS', progress: '100%' }), // a deleted user's
    ],
    tasks: [
      task(1, { status: 'SUCCESS', progress: '100%', finish_time: nowS - 5, data: JSON.stringify([{ id: 'clip-1', audio_url: 'https://cdn.example.com/1.mp3' }]), private_data: '{"key":"sk-upstream-secret"}' }),
      task(2, { status: 'QUEUED', action: 'LYRICS' }), // still running
      task(3, {
        platform: '50',
        action: 'generate',
        status: 'SUCCESS',
        progress: '100%',
        finish_time: nowS - 5,
        properties: '{"input":"a cat runs","origin_model_name":"kling-v1"}',
        private_data: '{"key":"kling-upstream-secret","upstream_task_id":"kling-up-3","result_url":"https://cdn.klingai.example/3.mp4"}',
        data: '{"code":0,"data":{"task_status":"succeed"}}',
      }),
      task(4, { platform: '56', action: 'generate', status: 'SUCCESS', progress: '100%' }),
    ],
    options: [...fixture.rows.options!, { key: 'ModelTierPricing', value: JSON.stringify(TIERS) }],
  })
  const result = await importInto(join(dir, 'data'), source)
  expect(result.exitCode).toBe(0)
  report = result.report
  app = await startImported(join(dir, 'data'))
}, 60_000)
afterAll(async () => {
  await app?.close()
  await upstream.stop()
  rmSync(dir, { recursive: true, force: true })
})

test('ModelTierPricing comes over model by model: a valid one kept as written, one with a gap dropped and named', () => {
  expect(app.deps.options.get('ModelTierPricing')).toEqual({ 'claude-sonnet-4-5': TIERS['claude-sonnet-4-5'] })
  const issue = report.issues.find((i: any) => i.field === 'ModelTierPricing')
  expect(issue).toMatchObject({ table: 'options', value: 'gemini-2.5-pro' })
  expect(issue.note).toContain('contiguous')
  expect(JSON.stringify(report.issues)).not.toContain('"ModelTierPricing","note":"no counterpart')
})

test('Midjourney tasks: a finished one keeps its state, image, buttons and times; a failed one stays refunded; a deleted user\'s is skipped', async () => {
  const [done] = await app.deps.repos.tasks.findOwned(2, 'midjourney', ['170000000000001'])
  expect(done).toMatchObject({ platform: 'midjourney', userId: 2, tokenId: 1, channelId: 1, action: 'IMAGINE', model: 'mj_imagine', status: 'SUCCESS', progress: '100%', imageUrl: 'https://cdn.example.com/cat.png', quota: 50_000, refunded: 0, submitTime: nowMs - 60_000, finishTime: nowMs - 10_000 })
  expect(JSON.parse(done!.data)).toMatchObject({ buttons: BUTTONS, promptEn: 'a cat', properties: { finalPrompt: 'a cat' } })
  const [failed] = await app.deps.repos.tasks.findOwned(2, 'midjourney', ['170000000000002'])
  expect(failed).toMatchObject({ status: 'FAILURE', failReason: 'banned prompt', refunded: 1, model: 'mj_upscale' })
  expect(await app.deps.repos.tasks.findOwned(5, 'midjourney', ['170000000000004'])).toEqual([])
  expect(report.tables.midjourneys).toMatchObject({ read: 4, imported: 3, skipped: 1 })
  expect(report.not_imported_tables.midjourneys).toBeUndefined()
})

test('a task still running in new-api comes over failed and not refunded, never polled, and is named in the report', async () => {
  const [running] = await app.deps.repos.tasks.findOwned(2, 'midjourney', ['170000000000003'])
  expect(running).toMatchObject({ status: 'FAILURE', refunded: 0, quota: 50_000 })
  expect(running!.failReason).toContain('not refunded')
  const [lyrics] = await app.deps.repos.tasks.findOwned(2, 'suno', ['task_2'])
  expect(lyrics).toMatchObject({ status: 'FAILURE', refunded: 0, model: 'suno_lyrics' })
  // nothing left for a poller to claim, so nothing can be refunded a second time
  expect(await app.deps.repos.tasks.countRunning(2)).toBe(0)
  expect(await app.deps.repos.tasks.claimDue('test-node', Date.now() + 86_400_000, Date.now() + 60_000, 100)).toEqual([])
  const notes = report.issues.filter((i: any) => i.field === 'status' && (i.table === 'midjourneys' || i.table === 'tasks'))
  expect(notes.map((i: any) => [i.table, i.ids])).toEqual([['midjourneys', [3]], ['tasks', [2]]])
  // balances are the users' own: the import credited nothing
  expect((await app.deps.repos.users.findById(2))!.quota).toBe(5_000_000)
})

test('Suno tasks keep their clips and prompt; video platforms not served are reported and left; private data never read', async () => {
  const [song] = await app.deps.repos.tasks.findOwned(2, 'suno', ['task_1'])
  expect(song).toMatchObject({ platform: 'suno', action: 'MUSIC', model: 'suno_music', status: 'SUCCESS', group: 'default', prompt: 'a song about tolls', submitTime: (nowS - 60) * 1000, finishTime: (nowS - 5) * 1000 })
  expect(JSON.parse(song!.data)).toEqual({ data: [{ id: 'clip-1', audio_url: 'https://cdn.example.com/1.mp3' }] })
  expect(report.tables.tasks).toMatchObject({ read: 4, imported: 3, skipped: 1 })
  expect(report.issues).toContainEqual(expect.objectContaining({ table: 'tasks', field: 'platform', value: '56', ids: [4] }))
  expect(JSON.stringify(report)).not.toContain('sk-upstream-secret')
  expect(JSON.stringify((await app.deps.repos.tasks.list({}, 0, 100)).items)).not.toContain('sk-upstream-secret')
})

test("a video task of new-api's (Kling, type 50) comes over under its public id, with the vendor's id and result URL from private_data, its key never", async () => {
  const [video] = (await app.deps.repos.tasks.list({ taskId: 'task_3' }, 0, 1)).items
  expect(video).toMatchObject({ platform: 'kling', userId: 2, channelId: 1, action: 'generate', model: 'kling-v1', status: 'SUCCESS', upstreamTaskId: 'kling-up-3', imageUrl: 'https://cdn.klingai.example/3.mp4', prompt: 'a cat runs', finishTime: (nowS - 5) * 1000 })
  expect(JSON.stringify(report)).not.toContain('kling-upstream-secret')
  expect(JSON.stringify((await app.deps.repos.tasks.list({}, 0, 100)).items)).not.toContain('kling-upstream-secret')
})

;(hasPostgres() ? describe : describe.skip)('into PostgreSQL', () => {
  test('the same tasks and tier prices land in a PostgreSQL target', async () => {
    const url = await (await sharedPostgres()).createDatabase()
    const dataDir = join(dir, 'pg-data')
    const env = { DATABASE_URL: url, CRYPTO_SECRET: 'c'.repeat(44) }
    const result = await importInto(dataDir, source, [], [], env)
    expect(result.exitCode).toBe(0)
    const pg = await startTestApp({ ROOT_PASSWORD: '', ...env }, undefined, dataDir)
    try {
      expect(pg.deps.repos.dialect).toBe('postgres')
      expect(pg.deps.options.get('ModelTierPricing')).toEqual({ 'claude-sonnet-4-5': TIERS['claude-sonnet-4-5'] })
      const [done] = await pg.deps.repos.tasks.findOwned(2, 'midjourney', ['170000000000001'])
      expect(done).toMatchObject({ status: 'SUCCESS', imageUrl: 'https://cdn.example.com/cat.png', submitTime: nowMs - 60_000 })
      const [lyrics] = await pg.deps.repos.tasks.findOwned(2, 'suno', ['task_2'])
      expect(lyrics).toMatchObject({ status: 'FAILURE', refunded: 0 })
      expect(await pg.deps.repos.tasks.countRunning(2)).toBe(0)
    } finally {
      await pg.close()
    }
  }, 60_000)
})
