import { afterAll, beforeAll, beforeEach, expect, test } from 'bun:test'
import { login } from '../../helpers/accounts'
import { call, startTestApp, type TestApp } from '../../helpers/test-app'

/**
 * /api/ratio_sync (root): prices read from another new-api, another Tollgate or a models.dev document served by
 * the test, through the outbound guard; a diff per model and field to review; applying writes the options and one
 * manage log row.
 */
let app: TestApp
let root: string
let server: ReturnType<typeof Bun.serve>
const served = new Map<string, unknown>()
const hits: string[] = []

const NEW_API_PRICING = {
  success: true,
  data: [
    { model_name: 'gpt-4o', quota_type: 0, model_ratio: 1.25, completion_ratio: 4, cache_ratio: 0.5 },
    { model_name: 'new-model', quota_type: 0, model_ratio: 0.5, completion_ratio: 2 },
    { model_name: 'dall-e-3', quota_type: 1, model_price: 0.04 },
  ],
}
// Tollgate's /api/pricing as a logged-out visitor of a group priced ×2 sees it: US$, taken back to the base price
const TOLLGATE_PRICING = {
  success: true,
  data: { group: 'default', group_ratio: 2, quota_per_unit: 500000, items: [{ model: 'claude-x', priced: true, mode: 'ratio', input: 6, output: 30, cache_read: 0.6, cache_write: 7.5 }, { model: 'unpriced', priced: false, mode: 'none' }] },
}
const MODELS_DEV = {
  anthropic: { id: 'anthropic', models: { 'claude-y': { id: 'claude-y', cost: { input: 3, output: 15, cache_read: 0.3, cache_write: 3.75 } } } },
  other: { id: 'other', models: { 'claude-y': { id: 'claude-y', cost: { input: 99, output: 99 } }, free: { id: 'free', cost: { input: 0, output: 0 } } } },
}

// new-api's /api/ratio_config with its model_tier_pricing table (ModelTierPricing's shape)
const GEMINI_TIERS = [
  { min_tokens: 0, max_tokens: 200000, input_price: 1.25, completion_price: 10, cache_read_price: 0.125 },
  { min_tokens: 200000, input_price: 2.5, completion_price: 15, cache_read_price: 0.25 },
]
const NEW_API_RATIO_CONFIG = {
  success: true,
  data: {
    model_ratio: { 'gemini-pro-x': 0.625 },
    model_tier_pricing: { 'gemini-pro-x': { enabled: true, basis: 'prompt_tokens', tiers: GEMINI_TIERS }, broken: { enabled: true, tiers: [{ min_tokens: 5, input_price: 1 }] } },
  },
}
// Tollgate's /api/pricing for a model with tiers, seen at group ×2: each tier's US$ taken back to the base price
const TOLLGATE_TIERED = {
  success: true,
  data: {
    group: 'default', group_ratio: 2, quota_per_unit: 500000,
    items: [{ model: 'claude-tiered', priced: true, mode: 'ratio', input: 6, output: 30, cache_read: 0.6, cache_write: 7.5, tiers: [
      { min_tokens: 0, max_tokens: 200000, input: 6, output: 30, cache_read: 0.6, cache_write: 7.5 },
      { min_tokens: 200000, input: 12, output: 45, cache_read: 1.2, cache_write: 15 },
    ] }],
  },
}

beforeAll(async () => {
  server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch(req) {
      const path = new URL(req.url).pathname
      hits.push(path)
      if (path === '/broken') return new Response('<html>', { headers: { 'content-type': 'text/html' } })
      return served.has(path) ? Response.json(served.get(path)) : new Response('no', { status: 404 })
    },
  })
  served.set('/api/pricing', NEW_API_PRICING)
  served.set('/tollgate/api/pricing', TOLLGATE_PRICING)
  served.set('/api.json', MODELS_DEV)
  served.set('/api/ratio_config', NEW_API_RATIO_CONFIG)
  served.set('/tiered/api/pricing', TOLLGATE_TIERED)
  app = await startTestApp()
  root = await login(app)
})
afterAll(async () => {
  await app.stop()
  server.stop(true)
})
beforeEach(async () => {
  hits.length = 0
  await app.deps.options.set('ModelRatio', { 'gpt-4o': 1, 'my-own': 3 })
  await app.deps.options.set('CompletionRatio', { 'gpt-4o': 4 })
  await app.deps.options.set('CacheRatio', { 'gpt-4o': 0.5, 'new-model': 0.1 })
  await app.deps.options.set('ModelPrice', {})
  await app.deps.options.set('ModelTierPricing', {})
})

const base = () => `http://127.0.0.1:${server.port}`
const fetchSync = (upstreams: unknown, cookie = root) => call(app, 'POST', '/api/ratio_sync/fetch', { upstreams }, { cookie })

test('a new-api instance: added, changed and removed per model and field; nothing written', async () => {
  const res = await fetchSync([{ name: 'peer', base_url: base() }])
  expect(res.status).toBe(200)
  expect(hits).toEqual(['/api/pricing'])
  const { results, differences } = res.body.data
  expect(results).toEqual([{ name: 'peer', ok: true, models: 3 }])
  expect(differences['gpt-4o']).toEqual({ model_ratio: { current: 1, upstreams: { peer: 1.25 }, change: 'changed' } })
  expect(differences['new-model']).toEqual({
    model_ratio: { upstreams: { peer: 0.5 }, change: 'added' },
    completion_ratio: { upstreams: { peer: 2 }, change: 'added' },
    cache_ratio: { current: 0.1, upstreams: { peer: null }, change: 'removed' },
  })
  expect(differences['dall-e-3']).toEqual({ model_price: { upstreams: { peer: 0.04 }, change: 'added' } })
  expect(differences['my-own']).toBeUndefined() // no source names it: the operator's own
  expect(app.deps.options.get('ModelRatio')).toEqual({ 'gpt-4o': 1, 'my-own': 3 })
})

test("a Tollgate instance's public prices and a models.dev document, side by side; a failed source named", async () => {
  const res = await fetchSync([
    { name: 'tollgate', base_url: `${base()}/tollgate` },
    { name: 'models.dev', base_url: base(), endpoint: `${base()}/api.json` },
    { name: 'down', base_url: base(), endpoint: '/missing' },
    { name: 'html', base_url: base(), endpoint: '/broken' },
  ])
  expect(res.status).toBe(200)
  const { results, differences } = res.body.data
  expect(results).toEqual([
    { name: 'tollgate', ok: true, models: 1 },
    { name: 'models.dev', ok: true, models: 2 },
    { name: 'down', ok: false, error: 'HTTP 404', code: 'source_status', status: 404, models: 0 },
    { name: 'html', ok: false, error: 'not JSON', code: 'source_not_json', models: 0 },
  ])
  // US$3 per 1M input at group ×2 → ratio 1.5; output ×5, cache read ×0.1, cache write ×1.25
  expect(differences['claude-x']).toEqual({
    model_ratio: { upstreams: { tollgate: 1.5 }, change: 'added' },
    completion_ratio: { upstreams: { tollgate: 5 }, change: 'added' },
    cache_ratio: { upstreams: { tollgate: 0.1 }, change: 'added' },
    create_cache_ratio: { upstreams: { tollgate: 1.25 }, change: 'added' },
  })
  // the first provider that prices a model wins
  expect(differences['claude-y'].model_ratio).toEqual({ upstreams: { 'models.dev': 1.5 }, change: 'added' })
  expect(differences.free).toEqual({ model_ratio: { upstreams: { 'models.dev': 0 }, change: 'added' } })
})

test('apply writes the chosen changes into the options and one manage log row', async () => {
  const res = await call(
    app,
    'POST',
    '/api/ratio_sync/apply',
    {
      changes: [
        { model: 'gpt-4o', field: 'model_ratio', value: 1.25 },
        { model: 'new-model', field: 'model_ratio', value: 0.5 },
        { model: 'new-model', field: 'cache_ratio', value: null },
        { model: 'dall-e-3', field: 'model_price', value: 0.04 },
      ],
    },
    { cookie: root },
  )
  expect(res.status).toBe(200)
  expect(res.body.data).toEqual({ applied: 4, options: ['ModelRatio', 'CacheRatio', 'ModelPrice'] })
  expect(app.deps.options.get('ModelRatio')).toEqual({ 'gpt-4o': 1.25, 'my-own': 3, 'new-model': 0.5 })
  expect(app.deps.options.get('CacheRatio')).toEqual({ 'gpt-4o': 0.5 })
  expect(app.deps.options.get('ModelPrice')).toEqual({ 'dall-e-3': 0.04 })
  await app.deps.metering.logs.flush()
  const logs = (await call(app, 'GET', '/api/log/?type=3&page_size=100', undefined, { cookie: root })).body.data.items
  expect(logs.filter((row: any) => row.content === 'ratio_sync: POST /api/ratio_sync/apply')).toHaveLength(1)
})

test('refusals: no session, a bad URL, a bad field or value, too many sources; nothing written', async () => {
  expect((await fetchSync([{ name: 'x', base_url: 'ftp://nowhere' }])).status).toBe(400)
  expect((await fetchSync([])).status).toBe(400)
  expect((await fetchSync(Array.from({ length: 11 }, (_, i) => ({ name: `s${i}`, base_url: base() })))).status).toBe(400)
  const apply = (changes: unknown) => call(app, 'POST', '/api/ratio_sync/apply', { changes }, { cookie: root })
  expect((await apply([{ model: 'm', field: 'image_ratio', value: 1 }])).status).toBe(400)
  expect((await apply([{ model: 'm', field: 'model_ratio', value: -1 }])).status).toBe(400)
  expect((await call(app, 'POST', '/api/ratio_sync/fetch', { upstreams: [{ name: 'x', base_url: base() }] })).status).toBe(401)
  expect(app.deps.options.get('ModelRatio')).toEqual({ 'gpt-4o': 1, 'my-own': 3 })
})

test("tiers: new-api's model_tier_pricing and Tollgate's priced tiers come into the diff; a tier table the option refuses is left out", async () => {
  const res = await fetchSync([
    { name: 'new-api', base_url: base(), endpoint: '/api/ratio_config' },
    { name: 'tollgate', base_url: `${base()}/tiered` },
  ])
  expect(res.status).toBe(200)
  const { differences } = res.body.data
  expect(differences['gemini-pro-x'].model_tier_pricing).toEqual({ upstreams: { 'new-api': { enabled: true, basis: 'prompt_tokens', tiers: GEMINI_TIERS } }, change: 'added' })
  expect(differences.broken).toBeUndefined() // its first tier does not start at 0: not a table ModelTierPricing takes
  expect(differences['claude-tiered'].model_tier_pricing).toEqual({
    upstreams: {
      tollgate: {
        enabled: true,
        basis: 'prompt_tokens',
        tiers: [
          { min_tokens: 0, max_tokens: 200000, input_price: 3, completion_price: 15, cache_read_price: 0.3, cache_write_price: 3.75 },
          { min_tokens: 200000, input_price: 6, completion_price: 22.5, cache_read_price: 0.6, cache_write_price: 7.5 },
        ],
      },
    },
    change: 'added',
  })

  // applied, the tiers are in force; fetched again, the same tiers are no difference
  const apply = await call(app, 'POST', '/api/ratio_sync/apply', { changes: [{ model: 'gemini-pro-x', field: 'model_tier_pricing', value: differences['gemini-pro-x'].model_tier_pricing.upstreams['new-api'] }] }, { cookie: root })
  expect(apply.status).toBe(200)
  expect(apply.body.data).toEqual({ applied: 1, options: ['ModelTierPricing'] })
  expect(app.deps.options.get('ModelTierPricing')).toEqual({ 'gemini-pro-x': { enabled: true, basis: 'prompt_tokens', tiers: GEMINI_TIERS } })
  const again = await fetchSync([{ name: 'new-api', base_url: base(), endpoint: '/api/ratio_config' }])
  expect(again.body.data.differences['gemini-pro-x']).toEqual({ model_ratio: { upstreams: { 'new-api': 0.625 }, change: 'added' } })

  // a source that publishes no tiers (new-api's /api/pricing list) never proposes removing them
  await app.deps.options.set('ModelTierPricing', { 'gpt-4o': { enabled: true, basis: 'prompt_tokens', tiers: GEMINI_TIERS } })
  const flat = await fetchSync([{ name: 'peer', base_url: base() }])
  expect(flat.body.data.differences['gpt-4o'].model_tier_pricing).toBeUndefined()
})

test('tiers refused: a number for tiers, tiers for a ratio, or tiers the option refuses; nothing half-written', async () => {
  const apply = (changes: unknown) => call(app, 'POST', '/api/ratio_sync/apply', { changes }, { cookie: root })
  expect((await apply([{ model: 'm', field: 'model_tier_pricing', value: 3 }])).status).toBe(400)
  expect((await apply([{ model: 'm', field: 'model_ratio', value: { tiers: [{ min_tokens: 0, input_price: 1 }] } }])).status).toBe(400)
  const res = await apply([
    { model: 'gpt-4o', field: 'model_ratio', value: 9 },
    { model: 'm', field: 'model_tier_pricing', value: { enabled: true, tiers: [{ min_tokens: 0, max_tokens: 10, input_price: 1 }] } },
  ])
  expect(res.status).toBe(400)
  expect(res.body.message).toContain('last tier')
  expect(app.deps.options.get('ModelRatio')).toEqual({ 'gpt-4o': 1, 'my-own': 3 })
  expect(app.deps.options.get('ModelTierPricing')).toEqual({})
})
