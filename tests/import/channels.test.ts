/**
 * Channels whose base URL the import rewrites: a vendor's Anthropic-compatible ("coding plan") endpoint becomes the
 * vendor root with the channel pinned to Anthropic, new-api's MiniMax default is kept explicit, one-api's Groq and
 * Together come in as Custom presets, Cloudflare's account id is read where each source kept it. Real SQLite sources
 * from new-api's and one-api's schemas; the imported gateway relays Claude Code traffic to a fake Zhipu.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { ONE_API_TYPES } from '../../src/import/channel-types'
import type { ImportResult } from '../../src/import/run-import'
import { PRESETS } from '../../src/providers/presets'
import { providerFor } from '../../src/providers/registry'
import { upstreamRequest } from '../../src/providers/upstream'
import { upstreamProtocolFor } from '../../src/relay/chat/upstream-protocol'
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstreams'
import type { TestApp } from '../helpers/test-app'
import { writeSqliteSource } from './fixtures/load'
import { newApiRows, oneApiRows, type NewApiFixture, type OneApiFixture, type Row } from './fixtures/rows'
import { NEW_API_TABLES, ONE_API_TABLES } from './fixtures/schema'
import { importInto, startImported, tempDir } from './helpers'

const PLAN_KEY = 'glm-plan-key-0123456789abcdef.xyz'
/** new-api's Codex key: the ChatGPT sign-in's tokens as one JSON line */
const ADVANCED = { advanced_routes: [{ incoming_path: '/v1/chat/completions', upstream_path: '/gw/chat', converter: 'none' }] }
const CODEX_KEY = JSON.stringify({ access_token: 'eyJ.a.b', refresh_token: 'rt-1', account_id: 'acct-1', email: 'a@example.com', type: 'codex', expired: '2026-12-01T00:00:00Z' })
const SPARK_KEY = 'a1b2c3d4|MjlmNzkzNmZkMDQ2OTc0ZDdmNGE2ZTZi|addd2272b6d8b7c8abdd79531420ca3b'
const ANSWER = 'Hello from the GLM Coding Plan.'

let zhipu: FakeUpstream
let dir: string
const apps: TestApp[] = []

beforeAll(async () => {
  dir = tempDir('channels')
  // Zhipu's Anthropic-compatible endpoint only, the key as Bearer: anything sent to another path is a 404
  zhipu = await startFakeUpstream({
    keys: [PLAN_KEY],
    behavior: { text: ANSWER, usage: { input: 12, output: 5 } },
    vendor: { paths: { '/api/anthropic/v1/messages': '/v1/messages' }, auth: { anthropic: 'bearer' } },
  })
})
afterAll(async () => {
  for (const app of apps) await app.close()
  await zhipu.stop()
  rmSync(dir, { recursive: true, force: true })
})

const newApiChannel = (id: number, type: number, name: string, base: string, over: Row = {}): Row => ({
  id, type, name, key: `key-${id}-0123456789`, base_url: base, models: `model-${id}`, group: 'default', status: 1, priority: 0, weight: 1,
  auto_ban: 1, created_time: 1_700_000_000, channel_info: '{"is_multi_key":false}', ...over,
})

/** Where an imported channel sends a client's request: the protocol it speaks upstream and the URL. */
async function target(app: TestApp, id: number, client: 'anthropic' | 'openai-chat'): Promise<{ protocol: string; url: string }> {
  const channel = (await app.deps.repos.channels.findById(id))!
  const provider = providerFor(channel.type)!
  const setting = channel.setting ? JSON.parse(channel.setting) : {}
  const { protocol } = upstreamProtocolFor({ provider, setting }, client)
  return { protocol, url: upstreamRequest(provider, channel.baseUrl, protocol, 'm', false, 'k', { other: channel.other }).url }
}

const issuesOf = (result: ImportResult, field: string) => result.report.issues.filter((i) => i.table === 'channels' && i.field === field)

describe('from new-api: coding plans and Anthropic-compatible base URLs', () => {
  let fixture: NewApiFixture
  let result: ImportResult
  let app: TestApp

  beforeAll(async () => {
    fixture = await newApiRows('http://127.0.0.1:9')
    const channels = [
      newApiChannel(1, 26, 'glm via the fake', `${zhipu.url}/api/anthropic`, { key: PLAN_KEY, models: 'glm-4.6' }),
      newApiChannel(2, 26, 'glm-coding-plan', 'glm-coding-plan'),
      newApiChannel(3, 26, 'glm intl plan', 'glm-coding-plan-international'),
      newApiChannel(4, 26, 'glm plan openai base', 'https://open.bigmodel.cn/api/coding/paas/v4'),
      newApiChannel(5, 25, 'kimi anthropic', 'https://api.moonshot.cn/anthropic/'),
      newApiChannel(6, 43, 'deepseek anthropic', 'https://api.deepseek.com/anthropic/v1'),
      newApiChannel(7, 35, 'minimax anthropic', 'https://api.minimaxi.com/anthropic'),
      newApiChannel(8, 35, 'minimax default', ''),
      newApiChannel(9, 45, 'doubao-coding-plan', 'doubao-coding-plan'),
      newApiChannel(10, 45, 'doubao plan url', 'https://ark.cn-beijing.volces.com/api/coding', { status: 3 }),
      newApiChannel(11, 25, 'kimi-coding-plan', 'kimi-coding-plan'),
      newApiChannel(12, 26, 'glm pay-as-you-go', 'https://open.bigmodel.cn'),
      newApiChannel(13, 14, 'claude type at glm', 'https://open.bigmodel.cn/api/anthropic'),
      newApiChannel(14, 26, 'glm behind a proxy', 'https://gw.example.com/zhipu/api/anthropic/v1/messages'),
      newApiChannel(15, 39, 'cloudflare', '', { other: 'cf-account-1' }),
      newApiChannel(16, 39, 'cloudflare no account', ''),
      newApiChannel(17, 31, 'yi', ''),
      newApiChannel(18, 53, 'submodel', ''),
      newApiChannel(19, 57, 'codex', '', { key: CODEX_KEY }),
      newApiChannel(20, 58, 'advanced', 'https://llm.internal.example.com', { settings: JSON.stringify({ advanced_custom: ADVANCED }) }),
      newApiChannel(21, 58, 'advanced without routes', 'https://llm.internal.example.com'),
      newApiChannel(22, 18, 'spark', '', { key: SPARK_KEY, other: 'v3.5' }),
    ]
    const source = join(dir, 'new-api.db')
    writeSqliteSource(source, NEW_API_TABLES, { ...fixture.rows, channels, abilities: [] })
    result = await importInto(join(dir, 'data-new'), source)
    expect(result.report.error).toBeNull()
    app = await startImported(join(dir, 'data-new'))
    apps.push(app)
    await app.deps.options.set('SelfUseModeEnabled', true) // the test's made-up models have no prices
  }, 60_000)

  const channel = async (id: number) => (await app.deps.repos.channels.findById(id))!
  const pinned = JSON.stringify({ upstream_protocol: 'anthropic' })

  test('a vendor Anthropic endpoint as base URL: the vendor root, pinned to Anthropic, reported as a mapped value', async () => {
    expect(await channel(1)).toMatchObject({ type: 26, baseUrl: zhipu.url, setting: pinned, status: 1 })
    expect(await channel(5)).toMatchObject({ baseUrl: 'https://api.moonshot.cn', setting: pinned })
    expect(await channel(6)).toMatchObject({ baseUrl: 'https://api.deepseek.com', setting: pinned })
    expect(await channel(7)).toMatchObject({ baseUrl: 'https://api.minimaxi.com', setting: pinned })
    expect(await channel(14)).toMatchObject({ baseUrl: 'https://gw.example.com/zhipu', setting: pinned }) // a proxy's own path is kept
    const mapped = issuesOf(result, 'base_url').filter((i) => i.note.includes('Anthropic-compatible endpoint'))
    expect(mapped.map((i) => [i.value, i.mapped_to, i.ids])).toEqual([
      [`${zhipu.url}/api/anthropic`, zhipu.url, [1]],
      ['https://api.moonshot.cn/anthropic/', 'https://api.moonshot.cn', [5]],
      ['https://api.deepseek.com/anthropic/v1', 'https://api.deepseek.com', [6]],
      ['https://api.minimaxi.com/anthropic', 'https://api.minimaxi.com', [7]],
      ['https://gw.example.com/zhipu/api/anthropic/v1/messages', 'https://gw.example.com/zhipu', [14]],
    ])
    // every client lands on the vendor's Anthropic endpoint, once, not doubled
    for (const client of ['anthropic', 'openai-chat'] as const) {
      expect(await target(app, 5, client)).toEqual({ protocol: 'anthropic', url: 'https://api.moonshot.cn/anthropic/v1/messages' })
      expect(await target(app, 6, client)).toEqual({ protocol: 'anthropic', url: 'https://api.deepseek.com/anthropic/v1/messages' })
      expect(await target(app, 7, client)).toEqual({ protocol: 'anthropic', url: 'https://api.minimaxi.com/anthropic/v1/messages' })
      expect(await target(app, 14, client)).toEqual({ protocol: 'anthropic', url: 'https://gw.example.com/zhipu/api/anthropic/v1/messages' })
    }
  })

  test("new-api's coding-plan words (and the GLM plan's OpenAI base) become the plan's Anthropic endpoint where Tollgate reaches it", async () => {
    expect(await channel(2)).toMatchObject({ baseUrl: 'https://open.bigmodel.cn', setting: pinned, status: 1 })
    expect(await channel(3)).toMatchObject({ baseUrl: 'https://api.z.ai', setting: pinned, status: 1 })
    expect(await channel(4)).toMatchObject({ baseUrl: 'https://open.bigmodel.cn', setting: pinned, status: 1 })
    expect(await target(app, 2, 'openai-chat')).toEqual({ protocol: 'anthropic', url: 'https://open.bigmodel.cn/api/anthropic/v1/messages' })
    expect(await target(app, 3, 'anthropic')).toEqual({ protocol: 'anthropic', url: 'https://api.z.ai/api/anthropic/v1/messages' })
    const plans = issuesOf(result, 'base_url').filter((i) => i.note.startsWith('GLM Coding Plan'))
    expect(plans.map((i) => [i.value, i.mapped_to, i.ids])).toEqual([
      ['glm-coding-plan', 'https://open.bigmodel.cn', [2]],
      ['glm-coding-plan-international', 'https://api.z.ai', [3]],
      ['https://open.bigmodel.cn/api/coding/paas/v4', 'https://open.bigmodel.cn', [4]],
    ])
  })

  test("Doubao's and Kimi's plans come in at the plan's base URL, served at the plan's own paths, never the pay-as-you-go ones", async () => {
    expect(await channel(9)).toMatchObject({ type: 45, baseUrl: 'https://ark.cn-beijing.volces.com/api/coding', status: 1, setting: '' })
    expect(await channel(10)).toMatchObject({ type: 45, baseUrl: 'https://ark.cn-beijing.volces.com/api/coding', setting: '' })
    expect(await channel(11)).toMatchObject({ type: 25, baseUrl: 'https://api.kimi.com/coding', status: 1, setting: '' })
    expect(await target(app, 9, 'anthropic')).toEqual({ protocol: 'anthropic', url: 'https://ark.cn-beijing.volces.com/api/coding/v1/messages' })
    expect(await target(app, 9, 'openai-chat')).toEqual({ protocol: 'openai-chat', url: 'https://ark.cn-beijing.volces.com/api/coding/v3/chat/completions' })
    expect(await target(app, 11, 'anthropic')).toEqual({ protocol: 'anthropic', url: 'https://api.kimi.com/coding/v1/messages' })
    expect(await target(app, 11, 'openai-chat')).toEqual({ protocol: 'openai-chat', url: 'https://api.kimi.com/coding/v1/chat/completions' })
    const words = issuesOf(result, 'base_url').filter((i) => i.value === 'doubao-coding-plan' || i.value === 'kimi-coding-plan')
    expect(words.map((i) => [i.value, i.mapped_to, i.ids])).toEqual([
      ['doubao-coding-plan', 'https://ark.cn-beijing.volces.com/api/coding', [9]],
      ['kimi-coding-plan', 'https://api.kimi.com/coding', [11]],
    ])
    expect(words[0]!.note).toContain("the plan's key goes nowhere else")
    expect(issuesOf(result, 'base_url').flatMap((i) => i.ids)).not.toContain(10) // already the plan's base URL: kept as it was
    expect(result.report.unsupported_channels.map((c) => c.id)).not.toContain(9)
  })

  test('what needs no rewriting stays as it was: a vendor root, an Anthropic-type channel at a vendor endpoint', async () => {
    expect(await channel(12)).toMatchObject({ baseUrl: 'https://open.bigmodel.cn', setting: '' })
    expect((await target(app, 12, 'openai-chat')).url).toBe('https://open.bigmodel.cn/api/paas/v4/chat/completions')
    expect(await channel(13)).toMatchObject({ type: 14, baseUrl: 'https://open.bigmodel.cn/api/anthropic', setting: '' })
    expect((await target(app, 13, 'anthropic')).url).toBe('https://open.bigmodel.cn/api/anthropic/v1/messages')
    const mappedIds = issuesOf(result, 'base_url').filter((i) => i.mapped_to !== undefined).flatMap((i) => i.ids)
    expect(mappedIds).not.toContain(12)
    expect(mappedIds).not.toContain(13)
  })

  test("an empty MiniMax base URL is new-api's default, api.minimax.chat, set explicitly", async () => {
    expect(await channel(8)).toMatchObject({ type: 35, baseUrl: 'https://api.minimax.chat', setting: '', status: 1 })
    expect((await target(app, 8, 'openai-chat')).url).toBe('https://api.minimax.chat/v1/chat/completions')
    const issue = issuesOf(result, 'base_url').find((i) => i.ids.includes(8))!
    expect(issue).toMatchObject({ value: '', mapped_to: 'https://api.minimax.chat' })
    expect(issue.note).toContain("new-api's default")
    expect(issue.note).toContain('https://api.minimax.io')
  })

  test("Cloudflare's account id in `other` is read, not reported as unused; without one the channel is disabled", async () => {
    expect(await channel(15)).toMatchObject({ type: 39, other: 'cf-account-1', status: 1 })
    expect((await target(app, 15, 'openai-chat')).url).toBe('https://api.cloudflare.com/client/v4/accounts/cf-account-1/ai/v1/chat/completions')
    expect(await channel(16)).toMatchObject({ type: 39, other: '', status: 2 })
    const other = issuesOf(result, 'other')
    expect(other.map((i) => i.ids)).toEqual([[16]])
    expect(other[0]!.note).toContain('the Cloudflare account id')
  })

  test("01.AI (31) and Submodel (53) come in served and enabled, at new-api's default hosts", async () => {
    expect(await channel(17)).toMatchObject({ type: 31, baseUrl: '', status: 1 })
    expect(await channel(18)).toMatchObject({ type: 53, baseUrl: '', status: 1 })
    expect((await target(app, 17, 'anthropic')).url).toBe('https://api.lingyiwanwu.com/v1/chat/completions')
    expect((await target(app, 18, 'openai-chat')).url).toBe('https://llm.submodel.ai/v1/chat/completions')
    expect(result.report.unsupported_channels.map((c) => c.id)).not.toContain(17)
    expect(result.report.unsupported_channels.map((c) => c.id)).not.toContain(18)
  })

  test("Spark (18) comes in served and enabled: its three-part key whole, the API version in `other` read", async () => {
    expect(await channel(22)).toMatchObject({ type: 18, baseUrl: '', other: 'v3.5', status: 1 })
    await app.deps.routing.channels.ready
    expect(app.deps.routing.channels.get(22)!.keys).toEqual([SPARK_KEY])
    expect(result.report.unsupported_channels.map((c) => c.id)).not.toContain(22)
    expect(issuesOf(result, 'other').flatMap((i) => i.ids)).not.toContain(22)
  })

  test('Codex (57) comes in served and enabled, its sign-in kept whole as the one key', async () => {
    expect(await channel(19)).toMatchObject({ type: 57, baseUrl: '', status: 1 })
    await app.deps.routing.channels.ready
    expect(app.deps.routing.channels.get(19)!.keys).toEqual([CODEX_KEY])
    expect(result.report.unsupported_channels.map((c) => c.id)).not.toContain(19)
  })

  test("AdvancedCustom (58): new-api's routes from `settings` carried into the setting, enabled; without routes, disabled and named", async () => {
    const carried = await channel(20)
    expect(carried).toMatchObject({ type: 58, status: 1 })
    expect(JSON.parse(carried.setting)).toEqual({ advanced_custom: ADVANCED })
    expect(await channel(21)).toMatchObject({ type: 58, status: 2 })
    expect(issuesOf(result, 'settings.advanced_custom').map((i) => i.ids)).toEqual([[21]])
    expect(issuesOf(result, 'settings.advanced_custom')[0]!.note).toContain('needs at least one route')
  })

  test('the summary prints the mappings', async () => {
    const lines: string[] = []
    await importInto(join(dir, 'data-dry'), join(dir, 'new-api.db'), ['--dry-run'], lines)
    const summary = lines.join('\n')
    expect(summary).toContain('channels.base_url = glm-coding-plan → https://open.bigmodel.cn: GLM Coding Plan')
    expect(summary).toContain('channels.base_url = (empty) → https://api.minimax.chat: empty:')
  })

  test('Claude Code through the imported plan channel: passed through untouched to the Anthropic endpoint; an OpenAI client converted to it', async () => {
    const key = `sk-${fixture.keys.root}`
    const raw = '{"model":"glm-4.6",  "max_tokens":64,"messages":[{"role":"user","content":"héllo"}],"metadata":{"user_id":"u-1"}}'
    zhipu.reset()
    const res = await fetch(`${app.url}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
      body: raw,
    })
    const body = (await res.json()) as any
    expect(res.status, JSON.stringify(body)).toBe(200)
    expect(body.content[0].text).toBe(ANSWER)
    const [sent] = zhipu.requests.filter((r) => r.kind === 'generate')
    expect(sent!.path).toBe('/api/anthropic/v1/messages')
    expect(sent!.body).toBe(raw)
    expect(sent!.headers.authorization).toBe(`Bearer ${PLAN_KEY}`)

    zhipu.reset()
    const chat = await fetch(`${app.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'glm-4.6', messages: [{ role: 'user', content: 'hi' }] }),
    })
    const chatBody = (await chat.json()) as any
    expect(chat.status, JSON.stringify(chatBody)).toBe(200)
    expect(chatBody.choices[0].message.content).toBe(ANSWER)
    const [converted] = zhipu.requests.filter((r) => r.kind === 'generate')
    expect(converted!.path).toBe('/api/anthropic/v1/messages')
    expect(converted!.json.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'hi' }] }])
  })
})

describe('from one-api: Groq and Together as presets of Custom, MiniMax and Cloudflare as one-api kept them', () => {
  let one: OneApiFixture
  let result: ImportResult
  let app: TestApp
  let groqUp: FakeUpstream

  beforeAll(async () => {
    groqUp = await startFakeUpstream({ keys: ['gsk-groq-key'], behavior: { text: 'from groq', usage: { input: 3, output: 2 } } })
    one = await oneApiRows('http://127.0.0.1:9')
    const ch = (id: number, type: number, name: string, base: string, over: Row = {}): Row => ({
      id, type, name, key: `key-${id}`, base_url: base, models: `model-${id}`, group: 'default', status: 1, weight: 0, priority: 0, created_time: 1_700_000_000, config: '', ...over,
    })
    const channels = [
      ch(1, 29, 'groq', ''),
      ch(2, 39, 'together', ''),
      ch(3, 29, 'groq via the fake', groqUp.url, { key: 'gsk-groq-key', models: 'llama-3.3-70b-versatile' }),
      ch(4, 27, 'minimax', ''),
      ch(5, 37, 'cloudflare', '', { config: JSON.stringify({ user_id: 'cf-account-2', region: '' }) }),
      ch(6, 41, 'novita', ''),
    ]
    const source = join(dir, 'one-api.db')
    writeSqliteSource(source, ONE_API_TABLES, { ...one.rows, channels })
    result = await importInto(join(dir, 'data-one'), source)
    expect(result.report.error).toBeNull()
    app = await startImported(join(dir, 'data-one'))
    apps.push(app)
    await app.deps.options.set('SelfUseModeEnabled', true)
  }, 60_000)
  afterAll(() => groqUp.stop())

  const channel = async (id: number) => (await app.deps.repos.channels.findById(id))!

  test("one-api's Groq (29) and Together (39): type 8 with the preset's base URL, enabled, both mappings reported", async () => {
    expect(await channel(1)).toMatchObject({ type: 8, baseUrl: 'https://api.groq.com/openai', status: 1, setting: '' })
    expect(await channel(2)).toMatchObject({ type: 8, baseUrl: 'https://api.together.xyz', status: 1, setting: '' })
    expect(await channel(3)).toMatchObject({ type: 8, baseUrl: groqUp.url, status: 1 }) // its own base URL wins
    expect((await target(app, 1, 'openai-chat')).url).toBe('https://api.groq.com/openai/v1/chat/completions')
    expect((await target(app, 2, 'openai-chat')).url).toBe('https://api.together.xyz/v1/chat/completions')
    const types = issuesOf(result, 'type').filter((i) => i.mapped_to === '8')
    expect(types.map((i) => [i.value, i.ids])).toEqual([['29', [1, 3]], ['39', [2]]])
    expect(types[0]!.note).toContain('Groq preset of Custom (type 8)')
    expect(types[1]!.note).toContain('Together AI preset')
    const bases = issuesOf(result, 'base_url').filter((i) => i.value === '')
    expect(bases.map((i) => [i.mapped_to, i.ids])).toEqual([
      ['https://api.groq.com/openai', [1]],
      ['https://api.together.xyz', [2]],
      ['https://api.minimax.chat', [4]],
    ])
    expect(result.report.unsupported_channels.map((c) => [c.id, c.source_type_name])).toEqual([[6, 'Novita']])
  })

  test('a chat through the imported Groq channel reaches its base URL with its key', async () => {
    const res = await fetch(`${app.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer sk-${one.keys.uuid}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'llama-3.3-70b-versatile', messages: [{ role: 'user', content: 'hi' }] }),
    })
    const body = (await res.json()) as any
    expect(res.status, JSON.stringify(body)).toBe(200)
    expect(body.choices[0].message.content).toBe('from groq')
    expect(groqUp.requests.at(-1)!.path).toBe('/v1/chat/completions')
    expect(groqUp.requests.at(-1)!.headers.authorization).toBe('Bearer gsk-groq-key')
  })

  test("MiniMax's empty base is one-api's default; Cloudflare's account id comes from one-api's config.user_id", async () => {
    expect(await channel(4)).toMatchObject({ type: 35, baseUrl: 'https://api.minimax.chat' })
    expect(await channel(5)).toMatchObject({ type: 39, other: 'cf-account-2', status: 1 })
    expect(issuesOf(result, 'config.user_id')).toEqual([]) // read, so not reported as without a counterpart
  })

  test('every one-api type without a new-api number whose service is a Tollgate preset maps to that preset', () => {
    const norm = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, '')
    for (const [number, t] of Object.entries(ONE_API_TYPES)) {
      if (t.newApi !== undefined) continue
      const preset = PRESETS.find((p) => norm(p.name) === norm(t.name) || norm(p.id) === norm(t.name))
      expect([number, t.name, t.preset]).toEqual([number, t.name, preset?.id])
    }
    expect(Object.values(ONE_API_TYPES).filter((t) => t.preset).map((t) => t.name)).toEqual(['Groq', 'TogetherAI'])
  })
})
