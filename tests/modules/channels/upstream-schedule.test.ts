import { afterAll, beforeAll, expect, test } from 'bun:test'
import { runScheduledUpstreamCheck } from '../../../src/modules/channels/upstream-schedule'
import { readUpstreamSettings } from '../../../src/modules/channels/upstream-settings'
import { listModels } from '../../helpers/fake-upstreams/openai-chat'
import { call, startTestApp, type TestApp } from '../../helpers/test-app'
import { fakeUpstream, userHeaders } from './helpers'

/** The scheduled upstream model check (new-api's channel_upstream_update task), run with a clock the test moves. */
let app: TestApp
let admin: Record<string, string>
let upstreamList = ['gpt-kept', 'gpt-new']
let listCalls = 0
const upstream = fakeUpstream((_req, url) => {
  if (url.pathname !== '/v1/models') return new Response('nothing here', { status: 404 })
  listCalls++
  return listModels(upstreamList)
})
let nowMs = Date.UTC(2026, 0, 1)

beforeAll(async () => {
  app = await startTestApp()
  app.deps.clock.now = () => nowMs
  admin = await userHeaders(app)
})
afterAll(async () => {
  await app.stop()
  upstream.stop()
})

async function channel(settings: Record<string, unknown>, body: Record<string, unknown> = {}): Promise<number> {
  const res = await call(app, 'POST', '/api/channel/', { name: 'up', type: 1, key: 'sk-a', base_url: upstream.url, models: 'gpt-kept,gpt-gone', settings, ...body }, admin)
  expect(res.status).toBe(200)
  return res.body.data.id
}
const row = async (id: number) => (await app.deps.repos.channels.findById(id))!
const stored = async (id: number) => readUpstreamSettings((await row(id)).settings)
/** Only these channels keep the check on: the others from earlier tests are switched off. */
async function only(ids: number[]) {
  for (const c of await app.deps.repos.channels.all()) {
    if (!ids.includes(c.id)) await app.deps.routing.channels.update(c.id, { settings: '' })
  }
}

test('the job checks the channels with the check on, stores what it found on them, and changes no model', async () => {
  upstreamList = ['gpt-kept', 'gpt-new']
  const on = await channel({ upstream_model_update_check_enabled: true })
  const off = await channel({})
  const disabled = await channel({ upstream_model_update_check_enabled: true }, { status: 2 })
  await only([on, off, disabled])
  // what the background job `upstream-model-check` runs (bound by the channels module)
  const run = await app.deps.upstreamModelCheck.run()
  expect(run).toEqual({ checked: [on], failed: [], auto_added: 0 })
  expect(await stored(on)).toMatchObject({
    upstream_model_update_last_check_time: nowMs / 1000,
    upstream_model_update_last_detected_models: ['gpt-new'],
    upstream_model_update_last_removed_models: ['gpt-gone'],
  })
  expect((await row(on)).models).toBe('gpt-kept,gpt-gone')
  expect((await stored(off)).upstream_model_update_last_check_time).toBe(0)
  expect((await stored(disabled)).upstream_model_update_last_check_time).toBe(0)
  // the console reads the stored findings from the channel
  const view = await call(app, 'GET', `/api/channel/${on}`, undefined, admin)
  expect(JSON.parse(view.body.data.settings).upstream_model_update_last_detected_models).toEqual(['gpt-new'])
})

test('the minimum interval: a channel checked 299 s ago is skipped, at 300 s it is checked again', async () => {
  const id = await channel({ upstream_model_update_check_enabled: true })
  await only([id])
  await runScheduledUpstreamCheck(app.deps)
  const calls = listCalls
  nowMs += 299_000
  expect((await runScheduledUpstreamCheck(app.deps)).checked).toEqual([])
  expect(listCalls).toBe(calls)
  nowMs += 1_000
  expect((await runScheduledUpstreamCheck(app.deps)).checked).toEqual([id])
  expect(listCalls).toBe(calls + 1)
  expect((await stored(id)).upstream_model_update_last_check_time).toBe(nowMs / 1000)
})

test('auto-sync adds the new models (never removes) as a channel edit that routes at once, with a manage log row', async () => {
  upstreamList = ['gpt-kept', 'gpt-new', 'gpt-newer']
  const id = await channel({ upstream_model_update_check_enabled: true, upstream_model_update_auto_sync_enabled: true })
  await only([id])
  nowMs += 1_000_000
  expect(await runScheduledUpstreamCheck(app.deps)).toEqual({ checked: [id], failed: [], auto_added: 2 })
  expect((await row(id)).models).toBe('gpt-kept,gpt-gone,gpt-new,gpt-newer')
  expect(app.deps.routing.channels.get(id)!.models).toContain('gpt-newer')
  expect(await stored(id)).toMatchObject({ upstream_model_update_last_detected_models: [], upstream_model_update_last_removed_models: ['gpt-gone'] })
  const logs = await call(app, 'GET', '/api/log/?type=3&page_size=100', undefined, admin)
  expect(logs.body.data.items.map((l: { content: string }) => l.content)).toContain(`channel: upstream model auto-sync added 2 models to channel #${id}`)
})

test('the manual detect stores its findings and never auto-applies, even with auto-sync on', async () => {
  upstreamList = ['gpt-kept', 'gpt-new']
  const id = await channel({ upstream_model_update_check_enabled: true, upstream_model_update_auto_sync_enabled: true })
  const res = await call(app, 'POST', '/api/channel/upstream_updates/detect', { id }, admin)
  expect(res.body.data.add_models).toEqual(['gpt-new'])
  expect((await row(id)).models).toBe('gpt-kept,gpt-gone')
  expect((await stored(id)).upstream_model_update_last_detected_models).toEqual(['gpt-new'])
})

test('ignore_models: an ignored model is stored, never proposed again, never auto-added; regex: rules too', async () => {
  upstreamList = ['gpt-kept', 'gpt-new', 'gpt-x-1', 'gpt-x-2', 'other']
  const id = await channel({ upstream_model_update_check_enabled: true })
  await only([id])
  await call(app, 'POST', '/api/channel/upstream_updates/detect', { id }, admin)
  const res = await call(app, 'POST', '/api/channel/upstream_updates/apply', { id, ignore_models: ['gpt-new'] }, admin)
  expect(res.status).toBe(200)
  expect(res.body.data).toMatchObject({ ignored_models: ['gpt-new'], added_models: [], remaining_models: ['gpt-x-1', 'gpt-x-2', 'other'] })
  expect((await stored(id)).upstream_model_update_ignored_models).toEqual(['gpt-new'])
  // a regex rule set from the drawer (the edit keeps the check's findings: they are the server's)
  const edit = await call(app, 'PUT', '/api/channel/', { id, settings: { upstream_model_update_check_enabled: true, upstream_model_update_auto_sync_enabled: true, upstream_model_update_ignored_models: ['gpt-new', 'regex:^gpt-x-'], upstream_model_update_last_detected_models: ['forged'] } }, admin)
  expect(edit.status).toBe(200)
  expect((await stored(id)).upstream_model_update_last_detected_models).toEqual(['gpt-x-1', 'gpt-x-2', 'other'])
  nowMs += 1_000_000
  await runScheduledUpstreamCheck(app.deps)
  expect((await row(id)).models).toBe('gpt-kept,gpt-gone,other')
  const detect = await call(app, 'POST', '/api/channel/upstream_updates/detect', { id }, admin)
  expect(detect.body.data.add_models).toEqual([])
  // ignoring a model that is not pending is refused, nothing written
  const stale = await call(app, 'POST', '/api/channel/upstream_updates/apply', { id, ignore_models: ['nope'] }, admin)
  expect(stale.status).toBe(409)
  expect(stale.body.data.code).toBe('not_pending')
})

test('a failed fetch is counted, still records the check time, and the run goes on', async () => {
  const dead = await channel({ upstream_model_update_check_enabled: true }, { base_url: 'http://127.0.0.1:9' })
  const live = await channel({ upstream_model_update_check_enabled: true })
  await only([dead, live])
  nowMs += 1_000_000
  const run = await runScheduledUpstreamCheck(app.deps)
  expect(run.failed).toEqual([dead])
  expect(run.checked.sort()).toEqual([dead, live].sort())
  expect((await stored(dead)).upstream_model_update_last_check_time).toBe(nowMs / 1000)
})

test('a run checks a bounded number of channels, the ones checked longest ago first', async () => {
  const [a, b, c] = [await channel({ upstream_model_update_check_enabled: true }), await channel({ upstream_model_update_check_enabled: true }), await channel({ upstream_model_update_check_enabled: true })]
  await only([a!, b!, c!])
  nowMs += 1_000_000
  expect((await runScheduledUpstreamCheck(app.deps, 2)).checked).toEqual([a, b])
  nowMs += 1_000_000
  expect((await runScheduledUpstreamCheck(app.deps, 2)).checked).toEqual([c, a])
})
