import { afterAll, beforeAll, beforeEach, expect, test } from 'bun:test'
import { h, render } from 'preact'
import { byLabel, byRole, settle, typeInto, useDom } from './dom'

useDom('http://127.0.0.1:3000/pricing')

/** "Sync prices" (root): compare with a source, review the changes row by row, apply the ones kept. */

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
    if (url.pathname === '/api/ratio_sync/fetch') {
      if (body.upstreams[0].base_url === 'http://down') return envelope({ results: [{ name: 'source', ok: false, error: 'HTTP 404', models: 0 }], differences: {} })
      return envelope({
        results: [{ name: 'source', ok: true, models: 2 }],
        differences: {
          'gpt-4o': { model_ratio: { current: 1, upstreams: { source: 1.25 }, change: 'changed' } },
          'new-model': { model_ratio: { upstreams: { source: 0.5 }, change: 'added' }, cache_ratio: { current: 0.1, upstreams: { source: null }, change: 'removed' } },
        },
      })
    }
    if (url.pathname === '/api/ratio_sync/apply') return envelope({ applied: body.changes.length, options: ['ModelRatio'] })
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

test('compare, review (a row left out), apply: only the rows kept are sent', async () => {
  const page = await renderPage('admin')
  byRole(page, 'button', 'Sync prices').click()
  await settleAll()
  const drawer = document.querySelector('dialog[open]') as HTMLElement
  typeInto(byLabel(drawer, 'Address of the source'), 'https://peer.example.com')
  await settle()
  byRole(drawer, 'button', 'Compare').click()
  await settleAll()
  expect(sent.find((s) => s.path === '/api/ratio_sync/fetch')!.body).toEqual({ upstreams: [{ name: 'source', base_url: 'https://peer.example.com' }] })
  const rows = [...drawer.querySelectorAll('tbody tr')].map((r) => r.textContent)
  // prices in US$ as everywhere else (ratio 1 = US$2 per 1M input tokens at 500,000 units per US$1), never a bare ratio
  expect(rows).toEqual([
    'gpt-4oInput price (changed)$2.00 / 1M tokens$2.50 / 1M tokens',
    'new-modelInput price (added)—$1.00 / 1M tokens',
    'new-modelCache read price (removed)× 0.1 of input—',
  ])
  expect(drawer.querySelector('tbody td span[title]')?.getAttribute('title')).toBe('Stored as model_ratio = 1')
  ;(drawer.querySelector('input[aria-label="Apply Input price of gpt-4o"]') as HTMLInputElement).click()
  await settle()
  byRole(document.body, 'button', 'Apply 2 changes').click()
  await settleAll()
  expect(sent.find((s) => s.path === '/api/ratio_sync/apply')!.body).toEqual({
    changes: [
      { model: 'new-model', field: 'model_ratio', value: 0.5 },
      { model: 'new-model', field: 'cache_ratio', value: null },
    ],
  })
})

test('a source that cannot be read is named; nothing to apply', async () => {
  const page = await renderPage('admin')
  byRole(page, 'button', 'Sync prices').click()
  await settleAll()
  const drawer = document.querySelector('dialog[open]') as HTMLElement
  typeInto(byLabel(drawer, 'Address of the source'), 'http://down')
  await settle()
  byRole(drawer, 'button', 'Compare').click()
  await settleAll()
  expect(drawer.textContent).toContain('The source could not be read: HTTP 404')
  expect((byRole(document.body, 'button', 'Apply 0 changes') as HTMLButtonElement).disabled).toBe(true)
})
