import { afterAll, beforeAll, beforeEach, expect, test } from 'bun:test'
import { h, render } from 'preact'
import { byLabel, byRole, settle, typeInto, useDom } from './dom'

useDom('http://127.0.0.1:3000/channels')

interface Sent {
  method: string
  path: string
  query: string
  body: any
}
const sent: Sent[] = []
let channels: unknown[] = []
let stats: unknown[] = []
let createAnswer: { status: number; message: string } = { status: 200, message: '' }
const realFetch = globalThis.fetch
const envelope = (data: unknown, status = 200, message = '') => new Response(JSON.stringify({ success: status < 400, message, data }), { status, headers: { 'content-type': 'application/json' } })

const channel = (id: number, name: string, extra: object = {}) => ({
  id, type: 1, name, key_mask: 'sk-ab…wxyz', key_count: 1, base_url: '', models: 'gpt-4o', group: 'default', priority: 0, weight: 1, tag: '',
  status: 1, model_mapping: '', test_model: '', auto_ban: 1, other: '', setting: '', used_quota: 500_000, response_time: 0, test_time: 0, test_error: '', created_time: 1, ...extra,
})

beforeAll(() => {
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://127.0.0.1:3000')
    const method = init?.method ?? 'GET'
    const body = init?.body ? JSON.parse(String(init.body)) : undefined
    sent.push({ method, path: url.pathname, query: url.search, body })
    if (url.pathname === '/api/status') return envelope({ version: 't', system_name: 'Tollgate', setup: true, register_enabled: false, quota_per_unit: 500_000, start_time: 0 })
    if (url.pathname === '/api/user/session') return envelope({ id: 1, username: 'root', display_name: 'Root', role: 100, status: 1, group: 'default' })
    if (url.pathname === '/api/channel/tags') return envelope(['prod'])
    if (url.pathname === '/api/pricing/models') return envelope({ quota_per_unit: 500_000, self_use_mode: false, group_ratios: {}, items: [{ model: 'house-llama', priced: true, mode: 'ratio' }], unpriced_models: ['served-only'] })
    if (url.pathname === '/api/data/channel_stats') return envelope({ start: 0, end: 0, items: stats })
    if (url.pathname === '/api/channel/models') return envelope([{ type: 1, name: 'OpenAI', default_base_url: 'https://api.openai.com', key_required: true, test_model: 'gpt-4o-mini', models: ['gpt-4o', 'gpt-4o-mini'] }])
    if (url.pathname === '/api/channel/' && method === 'GET') return envelope({ items: channels, total: channels.length, page: 1, page_size: 20 })
    if (url.pathname === '/api/channel/' && method === 'POST') return envelope(null, createAnswer.status, createAnswer.message)
    if (url.pathname === '/api/channel/' && method === 'PUT') return envelope(channel(body.id, 'x', body))
    if (url.pathname === '/api/channel/update_balance/1') return new Response(JSON.stringify({ success: true, message: '', balance: 42.5, data: { balance: 42.5 } }))
    if (url.pathname === '/api/channel/update_balance/2') return envelope({ code: 'balance_unsupported' }, 400, 'Anthropic has no balance endpoint Tollgate knows')
    if (url.pathname === '/api/channel/upstream_updates/detect') return envelope({ channel_id: body.id, channel_name: 'main', add_models: ['gpt-5', 'gpt-5-mini'], remove_models: ['gpt-4o'], last_check_time: 1 })
    if (url.pathname === '/api/channel/upstream_updates/apply') return envelope({ id: body.id, added_models: body.add_models, removed_models: body.remove_models })
    return envelope(null, 404, `no mock for ${method} ${url.pathname}`)
  }) as typeof fetch
})
afterAll(() => {
  globalThis.fetch = realFetch
})
beforeEach(() => {
  sent.length = 0
  document.body.innerHTML = ''
})

const settleAll = async () => {
  for (let i = 0; i < 6; i++) await settle()
}

async function renderPage(): Promise<HTMLElement> {
  const { I18nProvider } = await import('../../src/ui/i18n')
  const { SessionProvider } = await import('../../src/ui/state/session')
  const { ToastProvider } = await import('../../src/ui/components/toast')
  const { ConfirmProvider } = await import('../../src/ui/components/dialog')
  const { ChannelsPage } = await import('../../src/ui/pages/channels')
  localStorage.setItem('tollgate.locale', 'en')
  const container = document.createElement('div')
  document.body.append(container)
  render(h(I18nProvider, null, h(SessionProvider, null, h(ToastProvider, null, h(ConfirmProvider, null, h(ChannelsPage, null))))), container)
  await settleAll()
  return container
}

test('no channels: the empty state says what to do, with a button that opens the drawer', async () => {
  channels = []
  const page = await renderPage()
  expect(page.textContent).toContain('No channels yet: add one')
  byRole(page, 'button', 'Add channel').click()
  await settleAll()
  expect(document.querySelector('dialog[open] h2')?.textContent).toBe('New channel')
})

test('the new channel drawer checks before sending, sends new-api’s field names, and shows the server refusal', async () => {
  channels = [channel(1, 'main')]
  const page = await renderPage()
  expect(page.textContent).toContain('$1.00')
  byRole(page, 'button', 'New channel').click()
  await settleAll()
  const drawer = document.querySelector('dialog[open]') as HTMLElement
  byRole(document.body, 'button', 'Create').click()
  await settleAll()
  expect(sent.filter((s) => s.method === 'POST')).toEqual([])
  expect(drawer.textContent).toContain('Name is required')
  expect(drawer.textContent).toContain('Key is required')
  expect(drawer.textContent).toContain('Models is required')

  typeInto(byLabel(drawer, 'Name'), 'pool')
  typeInto(byLabel(drawer, 'Key'), 'sk-one\nsk-two')
  typeInto(byLabel(drawer, 'Model mapping'), '{"a": 1}')
  await settle()
  byRole(drawer, 'button', 'Add model gpt-4o-mini').click()
  await settle()
  expect(drawer.textContent).toContain('2 keys: a pool used in turn.')
  byRole(document.body, 'button', 'Create').click()
  await settleAll()
  expect(sent.filter((s) => s.method === 'POST')).toEqual([])
  expect(drawer.textContent).toContain('The model mapping for "a" must be a model name.')

  typeInto(byLabel(drawer, 'Model mapping'), '{"a": "gpt-4o-mini"}')
  createAnswer = { status: 400, message: 'key is required for OpenAI channels' }
  await settle()
  byRole(document.body, 'button', 'Create').click()
  await settleAll()
  const posts = sent.filter((s) => s.method === 'POST')
  expect(posts).toHaveLength(1)
  expect(posts[0]!.body).toEqual({
    type: 1, name: 'pool', key: 'sk-one\nsk-two', base_url: '', models: 'gpt-4o-mini', group: 'default', priority: 0, weight: 0, tag: '',
    model_mapping: '{"a":"gpt-4o-mini"}', test_model: '', auto_ban: 1, other: '',
    param_override: '', header_override: '', status_code_mapping: '', setting: {},
    settings: { upstream_model_update_check_enabled: false, upstream_model_update_auto_sync_enabled: false },
  })
  expect(byRole(drawer, 'alert').textContent).toBe('key is required for OpenAI channels')
})

test('AWS Bedrock and Google Vertex AI are offered: what to paste as the key, no base URL needed, Vertex’s region in other', async () => {
  channels = []
  createAnswer = { status: 200, message: '' }
  const page = await renderPage()
  byRole(page, 'button', 'Add channel').click()
  await settleAll()
  const drawer = document.querySelector('dialog[open]') as HTMLElement
  const pick = async (type: string) => {
    ;(byLabel(drawer, 'Type') as HTMLSelectElement).value = type
    byLabel(drawer, 'Type').dispatchEvent(new (globalThis as any).window.Event('change', { bubbles: true }))
    await settleAll()
  }
  await pick('33')
  expect(drawer.textContent).toContain('ACCESS_KEY_ID|SECRET_ACCESS_KEY|REGION')
  expect(drawer.textContent).toContain('the address follows the key’s region')
  await pick('41')
  expect(drawer.textContent).toContain('The service account’s JSON key file, pasted whole.')
  const account = JSON.stringify({ type: 'service_account', project_id: 'p1', client_email: 'a@p1.iam.gserviceaccount.com', private_key: 'k' }, null, 2)
  typeInto(byLabel(drawer, 'Name'), 'vertex')
  typeInto(byLabel(drawer, 'Key'), account)
  typeInto(byLabel(drawer, 'Models'), 'gemini-2.5-pro')
  typeInto(byLabel(drawer, 'Region / extra setting'), 'us-east5')
  await settle()
  expect(drawer.textContent).not.toContain('keys: a pool') // one JSON key, not one per line
  byRole(document.body, 'button', 'Create').click()
  await settleAll()
  const post = sent.find((s) => s.method === 'POST')!
  expect(post.body).toMatchObject({ type: 41, name: 'vertex', base_url: '', models: 'gemini-2.5-pro', other: 'us-east5' })
  expect(JSON.parse(post.body.key)).toEqual(JSON.parse(account))
})

test('filters go to the server; disabling a row is optimistic and sends its status', async () => {
  channels = [channel(1, 'main'), channel(2, 'backup', { tag: 'prod', status: 3 })]
  const page = await renderPage()
  expect(page.textContent).toContain('Auto-disabled')
  ;(byLabel(page, 'Tag') as HTMLSelectElement).value = 'prod'
  byLabel(page, 'Tag').dispatchEvent(new (globalThis as any).window.Event('change', { bubbles: true }))
  await settleAll()
  expect(sent.some((s) => s.path === '/api/channel/' && s.query.includes('tag=prod'))).toBe(true)
  expect(location.search).toBe('?tag=prod')
  byRole(page, 'button', "Disable tag 'prod'")

  byRole(page, 'button', 'Actions for main').click()
  await settle()
  const disable = [...page.querySelectorAll('[role=menuitem]')].find((item) => item.textContent === 'Disable') as HTMLElement
  disable.click()
  await settle()
  const mainRow = [...page.querySelectorAll('tbody tr')].find((row) => row.textContent?.includes('main'))!
  expect(mainRow.textContent).toContain('Disabled')
  await settleAll()
  expect(sent.filter((s) => s.method === 'PUT').map((s) => s.body)).toEqual([{ id: 1, status: 2 }])
})

test('the drawer’s overrides: shown open for a channel that has them, JSON checked before sending, setting kept with the masked proxy', async () => {
  channels = [channel(7, 'tuned', {
    header_override: '{"X-Team":"{api_key}"}',
    setting: JSON.stringify({ upstream_protocol: 'openai-responses', proxy: 'socks5://gw:****@proxy.example.com:1080', system_prompt: 'Be brief.' }),
  })]
  const page = await renderPage()
  byRole(page, 'button', 'Actions for tuned').click()
  await settle()
  ;([...page.querySelectorAll('[role=menuitem]')].find((item) => item.textContent === 'Edit') as HTMLElement).click()
  await settleAll()
  const drawer = document.querySelector('dialog[open]') as HTMLElement
  expect((drawer.querySelector('details') as HTMLDetailsElement).open).toBe(true)
  expect((byLabel(drawer, 'Proxy') as HTMLInputElement).value).toBe('socks5://gw:****@proxy.example.com:1080')
  typeInto(byLabel(drawer, 'Status code mapping'), '{"400": ')
  await settle()
  byRole(document.body, 'button', 'Save').click()
  await settleAll()
  expect(sent.filter((s) => s.method === 'PUT')).toEqual([])
  expect(drawer.textContent).toContain('This is not valid JSON.')

  typeInto(byLabel(drawer, 'Status code mapping'), '{"400": "500"}')
  byLabel(drawer, 'Also put it in front of a request’s own system prompt').click()
  await settle()
  byRole(document.body, 'button', 'Save').click()
  await settleAll()
  const put = sent.find((s) => s.method === 'PUT')!
  expect(put.body).toMatchObject({
    id: 7, status_code_mapping: '{"400": "500"}', header_override: '{\n  "X-Team": "{api_key}"\n}', param_override: '',
    setting: { upstream_protocol: 'openai-responses', proxy: 'socks5://gw:****@proxy.example.com:1080', system_prompt: 'Be brief.', system_prompt_override: true },
  })
})

test('the balance column: a dash until asked; "Update balance" in the row menu asks the server and shows the answer; a refusal in words', async () => {
  channels = [channel(1, 'main'), channel(2, 'claude', { balance: 0, balance_updated_time: 0 })]
  const page = await renderPage()
  const row = (name: string) => [...page.querySelectorAll('tbody tr')].find((r) => r.textContent?.includes(name))!
  expect([...page.querySelectorAll('th')].map((th) => th.textContent)).toContain('Balance')
  const menuItem = async (name: string) => {
    byRole(page, 'button', `Actions for ${name}`).click()
    await settle()
    ;([...page.querySelectorAll('[role=menuitem]')].find((item) => item.textContent === 'Update balance') as HTMLElement).click()
    await settleAll()
  }
  await menuItem('main')
  expect(sent.some((s) => s.method === 'GET' && s.path === '/api/channel/update_balance/1')).toBe(true)
  expect(row('main').textContent).toContain('42.5')
  await menuItem('claude')
  expect(byRole(page, 'alert').textContent).toContain('This vendor has no balance endpoint Tollgate knows.')
})

test('"Upstream models" in the row menu lists what the upstream added and dropped, all ticked; Apply sends the ticked ones', async () => {
  channels = [channel(1, 'main')]
  const page = await renderPage()
  byRole(page, 'button', 'Actions for main').click()
  await settle()
  ;([...page.querySelectorAll('[role=menuitem]')].find((item) => item.textContent === 'Upstream models') as HTMLElement).click()
  await settleAll()
  const dialog = document.querySelector('dialog[open]') as HTMLElement
  expect(dialog.querySelector('h2')?.textContent).toBe('Upstream models of main')
  expect(sent.find((s) => s.path === '/api/channel/upstream_updates/detect')?.body).toEqual({ id: 1 })
  expect(dialog.textContent).toContain('On the upstream’s list, not on the channel')
  expect(dialog.textContent).toContain('On the channel, gone from the upstream’s list')
  ;(dialog.querySelector('input[aria-label="Add gpt-5-mini"]') as HTMLInputElement).click()
  await settle()
  byRole(dialog, 'button', 'Apply 2 changes').click()
  await settleAll()
  expect(sent.find((s) => s.path === '/api/channel/upstream_updates/apply')?.body).toEqual({ id: 1, add_models: ['gpt-5'], remove_models: ['gpt-4o'] })
  expect(document.querySelector('dialog[open] h2')?.textContent ?? '').not.toBe('Upstream models of main')
  expect(document.body.textContent).toContain('Model changes applied')
})

test('each row shows its traffic over the chosen window: requests, error rate (danger from 5 %), p50/p95; the window is asked for and remembered', async () => {
  localStorage.removeItem('tollgate.channels.window')
  channels = [channel(1, 'busy'), channel(2, 'flaky'), channel(3, 'idle')]
  stats = [
    { channel_id: 1, name: 'busy', requests: 1200, errors: 6, error_rate: 0.005, p50_ms: 850, p95_ms: 2400 },
    { channel_id: 2, name: 'flaky', requests: 10, errors: 10, error_rate: 1, p50_ms: 0, p95_ms: 0 },
  ]
  const page = await renderPage()
  const asked = () => sent.filter((s) => s.path === '/api/data/channel_stats').map((s) => new URLSearchParams(s.query))
  // one call, after the list: not one before it and one after
  expect(asked()).toHaveLength(1)
  const first = asked()[0]!
  expect(Number(first.get('end_timestamp')) - Number(first.get('start_timestamp'))).toBe(86_400)
  expect(Math.abs(Number(first.get('end_timestamp')) - Date.now() / 1000)).toBeLessThan(60)

  const cell = (name: string) => [...page.querySelectorAll('tbody tr')].find((r) => r.textContent?.includes(name))!.querySelector('.channel-traffic, .col-traffic .muted')!
  expect(cell('busy').textContent).toBe('1,200 req 0.5% errp50 850 · p95 2,400 ms')
  expect(cell('busy').querySelector('.traffic-bad')).toBeNull()
  expect(cell('busy').getAttribute('title')).toContain('Over the last 24 hours: 1,200 requests, 6 errors (0.5%)')
  expect(cell('flaky').querySelector('.traffic-bad')?.textContent).toBe('100% err')
  expect(cell('flaky').textContent).toContain('—') // no successful request: no latency
  expect(cell('idle').textContent).toBe('No requests')
  expect([...page.querySelectorAll('th')].map((th) => th.textContent)).toEqual(expect.arrayContaining(['Traffic', 'Last test']))

  const group = page.querySelector('[role=group][aria-labelledby]')!
  expect(document.getElementById(group.getAttribute('aria-labelledby')!)?.textContent).toBe('Traffic over the last')
  byRole(group as HTMLElement, 'button', '7 days').click()
  await settleAll()
  const last = asked().at(-1)!
  expect(Number(last.get('end_timestamp')) - Number(last.get('start_timestamp'))).toBe(7 * 86_400)
  expect(byRole(group as HTMLElement, 'button', '7 days').getAttribute('aria-pressed')).toBe('true')
  expect(localStorage.getItem('tollgate.channels.window')).toBe('7d')
  stats = []
})

test('the Custom type suggests the instance’s own models too: priced first, named as such', async () => {
  channels = []
  const page = await renderPage()
  byRole(page, 'button', 'New channel').click()
  await settleAll()
  const drawer = document.querySelector('dialog[open]') as HTMLElement
  ;(byLabel(drawer, 'Type') as HTMLSelectElement).value = '8'
  byLabel(drawer, 'Type').dispatchEvent(new (globalThis as any).window.Event('change', { bubbles: true }))
  await settleAll()
  expect(sent.some((s) => s.path === '/api/pricing/models')).toBe(true)
  const chips = [...drawer.querySelectorAll('.model-suggestions .chip-button')].map((chip) => chip.textContent)
  expect(chips[0]).toBe('+ house-llama')
  expect(chips.at(-1)).toBe('+ served-only')
  expect(drawer.textContent).toContain('models priced on this instance first')
})

const pendingSettings = JSON.stringify({
  upstream_model_update_check_enabled: true,
  upstream_model_update_last_check_time: 1_767_225_600,
  upstream_model_update_last_detected_models: ['gpt-6', 'gpt-6-mini'],
  upstream_model_update_last_removed_models: [],
})

test('a row whose scheduled check left changes has a badge; the dialog shows the stored findings without fetching, and ignores the ticked additions', async () => {
  channels = [channel(1, 'main', { settings: pendingSettings }), channel(2, 'quiet')]
  const page = await renderPage()
  expect(page.textContent).toContain('2 model changes')
  expect(page.textContent?.match(/model changes/g)).toHaveLength(1)
  byRole(page, 'button', 'Actions for main').click()
  await settle()
  ;([...page.querySelectorAll('[role=menuitem]')].find((item) => item.textContent === 'Upstream models') as HTMLElement).click()
  await settleAll()
  const dialog = document.querySelector('dialog[open]') as HTMLElement
  expect(sent.some((s) => s.path === '/api/channel/upstream_updates/detect')).toBe(false)
  expect(dialog.textContent).toContain('Last checked')
  expect(dialog.querySelector('input[aria-label="Add gpt-6-mini"]')).not.toBeNull()
  ;(dialog.querySelector('input[aria-label="Add gpt-6"]') as HTMLInputElement).click()
  await settle()
  byRole(dialog, 'button', 'Ignore ticked additions').click()
  await settleAll()
  expect(sent.find((s) => s.path === '/api/channel/upstream_updates/apply')?.body).toEqual({ id: 1, ignore_models: ['gpt-6-mini'] })
})

test("the drawer's two switches send the settings with new-api's names, the stored findings kept", async () => {
  channels = [channel(1, 'main', { settings: pendingSettings })]
  const page = await renderPage()
  byRole(page, 'button', 'Actions for main').click()
  await settle()
  ;([...page.querySelectorAll('[role=menuitem]')].find((item) => item.textContent === 'Edit') as HTMLElement).click()
  await settleAll()
  const check = byLabel(document.body, 'Check the upstream’s model list every 30 minutes') as HTMLInputElement
  expect(check.checked).toBe(true)
  ;(byLabel(document.body, 'Add new upstream models automatically') as HTMLInputElement).click()
  await settle()
  byRole(document.body, 'button', 'Save').click()
  await settleAll()
  const put = sent.find((s) => s.method === 'PUT' && s.path === '/api/channel/')!
  expect(put.body.settings).toEqual({ ...JSON.parse(pendingSettings), upstream_model_update_auto_sync_enabled: true })
})
