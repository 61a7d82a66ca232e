import { afterAll, beforeAll, beforeEach, expect, test } from 'bun:test'
import { h, render } from 'preact'
import { byLabel, byRole, settle, typeInto, useDom } from './dom'

useDom('http://127.0.0.1:3000/pricing')

const sent: { method: string; path: string; body: any }[] = []
let role = 100
let options: Record<string, unknown> = {}
const realFetch = globalThis.fetch
const envelope = (data: unknown, status = 200, message = '') => new Response(JSON.stringify({ success: status < 400, message, data }), { status, headers: { 'content-type': 'application/json' } })

const OVERVIEW = {
  quota_per_unit: 500_000,
  self_use_mode: false,
  group_ratios: { default: 1, vip: 0.8 },
  items: [
    { model: 'gpt-4o', priced: true, mode: 'ratio', input: 2.5, output: 10, cache_read: 1.25, cache_write: 2.5, model_ratio: 1.25, completion_ratio: 4, cache_ratio: 0.5, create_cache_ratio: 1, channels: [{ id: 1, name: 'main', type: 1, status: 1 }] },
    { model: 'house-model', priced: false, mode: 'none', channels: [{ id: 2, name: 'local', type: 8, status: 2 }] },
    { model: 'image-model', priced: true, mode: 'call', per_call: 0.04, model_price: 0.04, channels: [] },
  ],
  unpriced_models: ['house-model'],
}

// what /api/pricing answers: money only, each model's price per group
const PUBLIC = {
  group: 'default',
  group_ratio: 1,
  groups: ['default', 'vip'],
  quota_per_unit: 500_000,
  self_use_mode: false,
  items: [
    { model: 'claude-sonnet-4-5', priced: true, mode: 'ratio', input: 3, output: 15, cache_read: 0.3, cache_write: 3.75, group_prices: { default: { mode: 'ratio', input: 3, output: 15 }, vip: { mode: 'ratio', input: 1.5, output: 7.5 } } },
    { model: 'gpt-4o', priced: true, mode: 'ratio', input: 2.5, output: 10, cache_read: 1.25, cache_write: 2.5, group_prices: { default: { mode: 'ratio', input: 2.5, output: 10 } } },
    { model: 'house-model', priced: false, mode: 'none', group_prices: {} },
    { model: 'text-embedding-3-small', priced: true, mode: 'ratio', input: 0.02, output: 0, group_prices: {} },
    { model: 'dall-e-3', priced: true, mode: 'call', per_call: 0.04, group_prices: {} },
  ],
  unpriced_models: ['house-model'],
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
  options = { ModelRatio: { other: 2 }, CompletionRatio: {}, CacheRatio: {}, CreateCacheRatio: {}, ModelPrice: {}, GroupRatio: { default: 1 } }
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

test('admin list: dollars per 1M, ratios, channels, unpriced models flagged; root sets a price in dollars', async () => {
  role = 100
  const page = await renderPage('admin')
  const row = (model: string) => [...page.querySelectorAll('tbody tr')].find((r) => r.querySelector('.price-model-name')?.textContent === model)!
  expect(row('gpt-4o').textContent).toContain('$2.50')
  expect(row('gpt-4o').textContent).toContain('$10.00')
  expect(row('gpt-4o').textContent).toContain('1.25 / 4 / 0.5 / 1')
  expect(row('gpt-4o').textContent).toContain('main')
  expect(row('house-model').textContent).toContain('No price')
  expect(row('house-model').textContent).toContain('(disabled channel)')
  expect(row('image-model').textContent).toContain('$0.04')
  expect(page.textContent).toContain('Models served by a channel without a price: 1.')
  expect(page.textContent).toContain('×0.8')

  byRole(page, 'button', 'Set price for house-model').click()
  await settleAll()
  const drawer = document.querySelector('dialog[open]') as HTMLElement
  typeInto(byLabel(drawer, 'Input (US$ per 1M tokens)'), '3')
  typeInto(byLabel(drawer, 'Output (US$ per 1M tokens)'), 'lots')
  await settle()
  byRole(document.body, 'button', 'Save').click()
  await settleAll()
  expect(puts()).toEqual([])
  expect(drawer.textContent).toContain('Output (US$ per 1M tokens) must be a non-negative amount in US$')
  typeInto(byLabel(drawer, 'Output (US$ per 1M tokens)'), '15')
  await settle()
  expect(drawer.textContent).toContain('Stored as: model ratio 1.5, completion ratio 5')
  byRole(document.body, 'button', 'Save').click()
  await settleAll()
  expect(puts()).toEqual([
    { key: 'ModelRatio', value: { other: 2, 'house-model': 1.5 } },
    { key: 'CompletionRatio', value: { 'house-model': 5 } },
  ])
})

test('the price options editor refuses bad JSON and negative numbers before sending', async () => {
  role = 100
  const page = await renderPage('admin')
  byRole(page, 'button', 'Edit price options').click()
  await settleAll()
  const drawer = document.querySelector('dialog[open]') as HTMLElement
  expect((byLabel(drawer, 'Model ratios (ModelRatio)') as HTMLTextAreaElement).value).toBe('{\n  "other": 2\n}')
  typeInto(byLabel(drawer, 'Model ratios (ModelRatio)'), '{"other": 2,}')
  typeInto(byLabel(drawer, 'Group ratios (GroupRatio)'), '{"vip": -1}')
  await settle()
  byRole(document.body, 'button', 'Save').click()
  await settleAll()
  expect(puts()).toEqual([])
  expect(drawer.textContent).toContain('Not valid JSON.')
  expect(drawer.textContent).toContain('"vip" must be a non-negative number.')
  typeInto(byLabel(drawer, 'Model ratios (ModelRatio)'), '{"other": 2}')
  typeInto(byLabel(drawer, 'Group ratios (GroupRatio)'), '{"default": 1, "vip": 0.5}')
  await settle()
  byRole(document.body, 'button', 'Save').click()
  await settleAll()
  expect(puts()).toEqual([{ key: 'GroupRatio', value: { default: 1, vip: 0.5 } }])
})

test('an admin who is not root reads prices only', async () => {
  role = 10
  const page = await renderPage('admin')
  expect(page.textContent).toContain('Only the root user can change prices.')
  expect(page.querySelector('button[aria-label^="Set price"]')).toBeNull()
  expect(page.textContent).not.toContain('Edit price options')
  expect(sent.some((s) => s.path === '/api/option/')).toBe(false)
})

test('model square: money per 1M or per call, never ratios; search, vendor and type filters; prices of another group; copy the name', async () => {
  const page = await renderPage('public')
  const names = () => [...page.querySelectorAll('.model-card-name')].map((n) => n.textContent)
  expect(names()).toEqual(['claude-sonnet-4-5', 'gpt-4o', 'house-model', 'text-embedding-3-small', 'dall-e-3'])
  const card = (model: string) => [...page.querySelectorAll('.model-card')].find((c) => c.querySelector('.model-card-name')?.textContent === model)!
  expect(card('gpt-4o').textContent).toContain('$2.50')
  expect(card('gpt-4o').textContent).toContain('OpenAI · Chat')
  expect(card('dall-e-3').textContent).toContain('Per call$0.04')
  expect(card('house-model').textContent).toContain('No price')
  expect(card('text-embedding-3-small').textContent).toContain('Embedding')
  expect(page.textContent).not.toMatch(/ratio|×/i)
  expect(byRole(card('gpt-4o'), 'button', 'Copy the model name gpt-4o')).toBeDefined()

  typeInto(byLabel(page, 'Search'), 'claude')
  await settle()
  expect(names()).toEqual(['claude-sonnet-4-5'])
  typeInto(byLabel(page, 'Search'), '')
  await settle()
  byRole(page, 'button', 'OpenAI 3').click()
  await settle()
  expect(names()).toEqual(['gpt-4o', 'text-embedding-3-small', 'dall-e-3'])
  const kind = byLabel(page, 'Type') as HTMLSelectElement
  kind.value = 'image'
  kind.dispatchEvent(new Event('change', { bubbles: true }))
  await settle()
  expect(names()).toEqual(['dall-e-3'])
  kind.value = ''
  kind.dispatchEvent(new Event('change', { bubbles: true }))
  byRole(page, 'button', 'All').click()
  await settle()

  const group = byLabel(page, 'Prices for group') as HTMLSelectElement
  group.value = 'vip'
  group.dispatchEvent(new Event('change', { bubbles: true }))
  await settle()
  expect(card('claude-sonnet-4-5').textContent).toContain('$1.50')
  expect(card('gpt-4o').textContent).toContain('No price') // not served to vip
})
