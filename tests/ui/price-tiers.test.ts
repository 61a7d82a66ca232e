import { afterAll, beforeAll, beforeEach, expect, test } from 'bun:test'
import { h, render } from 'preact'
import { byLabel, byRole, settle, typeInto, useDom } from './dom'

useDom('http://127.0.0.1:3000/pricing')

/** Prices by prompt length in the console: the admin list and the model square show the tiers, "Set price" edits them. */

const sent: { method: string; path: string; body: any }[] = []
let role = 100
let options: Record<string, unknown> = {}
const realFetch = globalThis.fetch
const envelope = (data: unknown, status = 200, message = '') => new Response(JSON.stringify({ success: status < 400, message, data }), { status, headers: { 'content-type': 'application/json' } })

const TIERS = [
  { min_tokens: 0, max_tokens: 200000, input: 1.25, output: 10, cache_read: 0.125, cache_write: 1.25 },
  { min_tokens: 200000, input: 2.5, output: 15, cache_read: 0.25, cache_write: 2.5 },
]
const STORED = {
  enabled: true,
  basis: 'prompt_tokens',
  tiers: [
    { min_tokens: 0, max_tokens: 200000, input_price: 1.25, completion_price: 10, cache_read_price: 0.125 },
    { min_tokens: 200000, input_price: 2.5, completion_price: 15, cache_read_price: 0.25 },
  ],
}

const OVERVIEW = {
  quota_per_unit: 500_000,
  self_use_mode: false,
  group_ratios: { default: 1, vip: 0.8 },
  items: [
    { model: 'gemini-long', priced: true, mode: 'ratio', input: 1.25, output: 10, cache_read: 0.125, cache_write: 1.25, model_ratio: 0.625, completion_ratio: 8, cache_ratio: 0.1, create_cache_ratio: 1, tiers: TIERS, channels: [{ id: 1, name: 'main', type: 1, status: 1 }] },
    { model: 'gpt-4o', priced: true, mode: 'ratio', input: 2.5, output: 10, cache_read: 1.25, cache_write: 2.5, model_ratio: 1.25, completion_ratio: 4, cache_ratio: 0.5, create_cache_ratio: 1, channels: [{ id: 1, name: 'main', type: 1, status: 1 }] },
  ],
  unpriced_models: [],
}

// what /api/pricing answers: money only, each model's price per group
const PUBLIC = {
  group: 'default',
  group_ratio: 1,
  groups: ['default'],
  quota_per_unit: 500_000,
  self_use_mode: false,
  items: [{ model: 'gemini-long', priced: true, mode: 'ratio', input: 1.25, output: 10, cache_read: 0.125, cache_write: 1.25, tiers: TIERS, group_prices: { default: { mode: 'ratio', input: 1.25, output: 10, tiers: TIERS } } }],
  unpriced_models: [],
}

beforeAll(() => {
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://127.0.0.1:3000')
    const method = init?.method ?? 'GET'
    const body = init?.body ? JSON.parse(String(init.body)) : undefined
    sent.push({ method, path: url.pathname, body })
    if (url.pathname === '/api/status') return envelope({ version: 't', system_name: 'Tollgate', setup: true, register_enabled: false, quota_per_unit: 500_000, start_time: 0, public_pricing_enabled: true })
    if (url.pathname === '/api/user/session') return envelope({ id: 1, username: 'boss', display_name: 'Boss', role, status: 1, group: 'default' })
    if (url.pathname === '/api/pricing/models') return envelope(OVERVIEW)
    if (url.pathname === '/api/pricing') return envelope(PUBLIC)
    if (url.pathname === '/api/option/' && method === 'GET') return envelope(Object.entries(options).map(([key, value]) => ({ key, value, type: 'json', description: '' })))
    if (url.pathname === '/api/option/' && method === 'PUT') {
      options[body.key] = body.value
      return envelope({ key: body.key, value: body.value })
    }
    return envelope(null, 404, `no mock for ${method} ${url.pathname}`)
  }) as typeof fetch
})
afterAll(() => {
  globalThis.fetch = realFetch
})
beforeEach(() => {
  sent.length = 0
  document.body.innerHTML = ''
  options = { ModelRatio: { other: 2 }, CompletionRatio: {}, CacheRatio: {}, CreateCacheRatio: {}, ModelPrice: {}, GroupRatio: { default: 1 }, ModelTierPricing: { 'gemini-long': STORED, other: STORED } }
})

const settleAll = async () => {
  for (let i = 0; i < 6; i++) await settle()
}
const puts = () => sent.filter((s) => s.method === 'PUT').map((s) => s.body)

async function renderPage(which: 'admin' | 'public'): Promise<HTMLElement> {
  const { I18nProvider } = await import('../../src/ui/i18n')
  const { SessionProvider, useSession } = await import('../../src/ui/state/session')
  const { ToastProvider } = await import('../../src/ui/components/toast')
  const { PricingPage } = await import('../../src/ui/pages/pricing')
  const { ModelSquarePage } = await import('../../src/ui/pages/models')
  localStorage.setItem('tollgate.locale', 'en')
  const container = document.createElement('div')
  document.body.append(container)
  // the app shows logged-in pages once the session knows the user
  const Gate = () => (which === 'public' || useSession().user ? h(which === 'admin' ? PricingPage : ModelSquarePage, null) : null)
  render(h(I18nProvider, null, h(SessionProvider, null, h(ToastProvider, null, h(Gate, null)))), container)
  await settleAll()
  return container
}

const row = (page: HTMLElement, model: string) => [...page.querySelectorAll('tbody tr')].find((r) => r.querySelector('.price-model-name')?.textContent === model)!
const openSetPrice = async (page: HTMLElement, model: string) => {
  byRole(page, 'button', `Set price for ${model}`).click()
  await settleAll()
  return document.querySelector('dialog[open]') as HTMLElement
}
const inputs = (drawer: HTMLElement, label: string) => [...drawer.querySelectorAll('label')].filter((l) => l.textContent?.startsWith(label)).map((l) => drawer.querySelector(`#${l.htmlFor}`) as HTMLInputElement)

test('admin list: a tiered model shows the range and US$ per 1M tokens of each tier', async () => {
  const page = await renderPage('admin')
  const text = row(page, 'gemini-long').textContent!
  expect(text).toContain('0–200,000 tokens')
  expect(text).toContain('in $1.25 · out $10.00')
  expect(text).toContain('200,000 tokens and more')
  expect(text).toContain('in $2.50 · out $15.00')
  expect(row(page, 'gpt-4o').querySelector('.price-tier-lines')).toBeNull()
})

test('Set price: the tiers are edited in place; a tier out of order is refused before sending; saved as ModelTierPricing', async () => {
  const page = await renderPage('admin')
  const drawer = await openSetPrice(page, 'gemini-long')
  expect((byLabel(drawer, 'Pricing') as HTMLSelectElement).value).toBe('tiered')
  expect(inputs(drawer, 'From (prompt tokens)').map((i) => i.value)).toEqual(['0', '200000'])
  expect(inputs(drawer, 'Input (US$ per 1M tokens)').map((i) => i.value)).toEqual(['1.25', '2.5'])
  byRole(drawer, 'button', 'Add tier').click()
  await settle()
  typeInto(inputs(drawer, 'From (prompt tokens)')[2]!, '100000')
  typeInto(inputs(drawer, 'Input (US$ per 1M tokens)')[2]!, '5')
  typeInto(inputs(drawer, 'Output (US$ per 1M tokens)')[2]!, '20')
  await settle()
  byRole(document.body, 'button', 'Save').click()
  await settleAll()
  expect(puts()).toEqual([])
  expect(drawer.textContent).toContain('Each tier must start above the one before it.')
  typeInto(inputs(drawer, 'From (prompt tokens)')[2]!, '1000000')
  await settle()
  byRole(document.body, 'button', 'Save').click()
  await settleAll()
  const tiers = [
    STORED.tiers[0],
    { min_tokens: 200000, max_tokens: 1000000, input_price: 2.5, completion_price: 15, cache_read_price: 0.25 },
    { min_tokens: 1000000, input_price: 5, completion_price: 20 },
  ]
  expect(puts()).toEqual([{ key: 'ModelTierPricing', value: { 'gemini-long': { enabled: true, basis: 'prompt_tokens', tiers }, other: STORED } }])
})

test('Set price: removing a tier, and a flat price saved over tiers removes them (they would win)', async () => {
  const page = await renderPage('admin')
  let drawer = await openSetPrice(page, 'gemini-long')
  byRole(drawer, 'button', 'Remove tier 2').click()
  await settle()
  byRole(document.body, 'button', 'Save').click()
  await settleAll()
  expect(puts()).toEqual([{ key: 'ModelTierPricing', value: { 'gemini-long': { enabled: true, basis: 'prompt_tokens', tiers: [{ min_tokens: 0, input_price: 1.25, completion_price: 10, cache_read_price: 0.125 }] }, other: STORED } }])
  sent.length = 0
  drawer = await openSetPrice(page, 'gemini-long')
  const mode = byLabel(drawer, 'Pricing') as HTMLSelectElement
  mode.value = 'token'
  mode.dispatchEvent(new Event('change', { bubbles: true }))
  await settle()
  typeInto(byLabel(drawer, 'Input (US$ per 1M tokens)'), '2')
  typeInto(byLabel(drawer, 'Output (US$ per 1M tokens)'), '8')
  await settle()
  byRole(document.body, 'button', 'Save').click()
  await settleAll()
  expect(puts()).toEqual([
    { key: 'ModelRatio', value: { other: 2, 'gemini-long': 1 } },
    { key: 'CompletionRatio', value: { 'gemini-long': 4 } },
    // the cache prices shown (the first tier's) kept, as multiples of the new input price
    { key: 'CacheRatio', value: { 'gemini-long': 0.0625 } },
    { key: 'CreateCacheRatio', value: { 'gemini-long': 0.625 } },
    { key: 'ModelTierPricing', value: { other: STORED } },
  ])
})

test('model square: the card of a tiered model lists its tiers in money, never ratios', async () => {
  const page = await renderPage('public')
  const card = page.querySelector('.model-card')!
  expect(card.textContent).toContain('0–200,000 tokens')
  expect(card.textContent).toContain('200,000 tokens and more')
  expect(card.textContent).toContain('in $2.50 · out $15.00')
  expect(card.textContent).not.toMatch(/ratio/i)
})

test('tiersToConfig: contiguous tiers from 0, the last open; the first not at 0, a tier out of order, output beside a free input refused', async () => {
  const { tiersToConfig } = await import('../../src/ui/lib/tier-prices')
  expect(tiersToConfig([{ from: 0, input: 2, output: 8 }, { from: 1000, input: 4, output: 12, cacheRead: 0.4 }])).toEqual({
    config: { enabled: true, basis: 'prompt_tokens', tiers: [{ min_tokens: 0, max_tokens: 1000, input_price: 2, completion_price: 8 }, { min_tokens: 1000, input_price: 4, completion_price: 12, cache_read_price: 0.4 }] },
  })
  expect(tiersToConfig([{ from: 5, input: 2, output: 8 }])).toEqual({ error: { code: 'first' } })
  expect(tiersToConfig([{ from: 0, input: 2, output: 8 }, { from: 0, input: 4, output: 8 }])).toEqual({ error: { code: 'order', index: 1 } })
  expect(tiersToConfig([{ from: 0, input: 0, output: 8 }])).toEqual({ error: { code: 'freeInput', index: 0 } })
})
