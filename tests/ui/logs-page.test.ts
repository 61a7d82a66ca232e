import { afterAll, beforeAll, expect, test } from 'bun:test'
import { h, render } from 'preact'
import type { memoryLocation } from 'wouter-preact/memory-location'
import { byLabel, byRole, settle, typeInto, useDom } from './dom'

// The logs page against a stubbed API: the filters come from the URL, go to the API, and back to the URL.
// The URL is wouter's in-memory location (the browser one listens on globals that other test files share).
useDom()

const ROW = {
  id: 7, created_at: 1_795_000_000, type: 5, user_id: 1, username: 'root', token_id: 1, token_name: 'ci', model_name: 'gpt-4o',
  upstream_model: 'gpt-4o', group: 'default', prompt_tokens: 12, completion_tokens: 0, cache_read_tokens: 0, cache_write_tokens: 0,
  reasoning_tokens: 0, quota: 0, use_time_ms: 1500, first_token_ms: 0, is_stream: false, status_code: 503, ip: '127.0.0.1',
  request_id: 'req-abc', content: 'upstream 503: overloaded', channel: 3,
  other: { attempts: [{ channelId: 3, status: 503, error: 'overloaded' }, { channelId: 4, status: 502 }] },
}

const calls: string[] = []
let rows: unknown[] = []
const realFetch = globalThis.fetch
const answer = (data: unknown) => new Response(JSON.stringify({ success: true, message: '', data }), { headers: { 'content-type': 'application/json' } })

beforeAll(() => {
  globalThis.fetch = (async (input: string | URL | Request) => {
    const url = String(input)
    calls.push(url)
    if (url.startsWith('/api/status')) return answer({ version: '0', system_name: 'T', setup: true, register_enabled: false, quota_per_unit: 500_000, start_time: 0 })
    if (url.startsWith('/api/user/session')) return answer({ id: 1, username: 'root', display_name: 'Root', role: 100, status: 1, group: 'default' })
    if (url.startsWith('/api/log/stat')) return answer({ quota: 1_000_000, rpm: 0, tpm: 0, count: 42, tokens: 1234 })
    if (url.startsWith('/api/log/')) return answer({ items: rows, total: rows.length, page: 1, page_size: 20 })
    return new Response('{}', { status: 404 })
  }) as typeof fetch
})
afterAll(() => {
  globalThis.fetch = realFetch
})

let memory: ReturnType<typeof memoryLocation>
/** The query string the page is at now. */
const search = () => memory.history!.at(-1)!.split('?')[1] ?? ''

async function mount(path: string) {
  const { I18nProvider } = await import('../../src/ui/i18n')
  const { SessionProvider, useSession } = await import('../../src/ui/state/session')
  const { LogsPage } = await import('../../src/ui/pages/logs')
  const { Router } = await import('wouter-preact')
  memory = (await import('wouter-preact/memory-location')).memoryLocation({ path, record: true })
  const Gate = () => (useSession().user ? h(LogsPage, null) : null)
  const container = document.createElement('div')
  document.body.append(container)
  render(h(I18nProvider, null, h(SessionProvider, null, h(Router, { hook: memory.hook, children: h(Gate, null) }))), container)
  for (let i = 0; i < 5; i++) await settle()
  return container
}

test('filters from the URL reach the API; a filter that matches nothing offers Reset, which clears the URL', async () => {
  localStorage.setItem('tollgate.locale', 'en')
  const page = await mount('/logs?type=5&model_name=gpt-4o')
  expect(calls).toContain('/api/log/?type=5&model_name=gpt-4o&p=1&page_size=20')
  expect(calls.some((url) => url.startsWith('/api/log/stat'))).toBe(false) // errors are not billed: no totals
  expect((byLabel(page, 'Type') as HTMLSelectElement).value).toBe('5')
  expect((byLabel(page, 'Model') as HTMLInputElement).value).toBe('gpt-4o')
  expect(page.textContent).toContain('No requests match these filters')
  // the export downloads what the filters select (every page of it)
  const exportLink = [...page.querySelectorAll('a')].find((a) => a.textContent === 'Export CSV')
  expect(exportLink?.getAttribute('href')).toBe('/api/log/export?type=5&model_name=gpt-4o')

  rows = [ROW]
  const empty = page.querySelector('.empty')!
  byRole(empty, 'button', 'Reset filters').click()
  for (let i = 0; i < 5; i++) await settle()
  expect(search()).toBe('')
  expect(calls).toContain('/api/log/?p=1&page_size=20')
  expect(calls).toContain('/api/log/stat')
  expect(page.querySelector('.log-totals')?.textContent).toContain('42')
  expect(page.querySelector('.log-totals')?.textContent).toContain('$2.00')
  expect(page.textContent).toContain('upstream 503: overloaded')
  render(null, page)
})

test('the form checks the range before filtering, then puts the filters in the URL', async () => {
  rows = [ROW]
  const page = await mount('/logs')
  typeInto(byLabel(page, 'From'), '2026-11-23T15:00')
  typeInto(byLabel(page, 'To'), '2026-11-23T14:00')
  typeInto(byLabel(page, 'Channel ID'), '3')
  await settle()
  byRole(page, 'button', 'Filter').click()
  await settle()
  expect(byRole(page, 'alert').textContent).toBe('"To" must not be before "From"')
  expect(search()).toBe('')

  typeInto(byLabel(page, 'To'), '2026-11-23T16:00')
  await settle()
  byRole(page, 'button', 'Filter').click()
  for (let i = 0; i < 5; i++) await settle()
  const params = new URLSearchParams(search())
  expect(params.get('channel')).toBe('3')
  expect(Number(params.get('end_timestamp')) - Number(params.get('start_timestamp'))).toBe(3600 + 59)
  expect(calls.at(-1)).toContain('channel=3')
  render(null, page)
})

test('a row opens its details: request id, the retry path across channels, the message', async () => {
  rows = [ROW]
  const page = await mount('/logs')
  const details = [...page.querySelectorAll('button')].find((b) => b.getAttribute('aria-label')?.startsWith('Details of the entry at'))!
  details.click()
  await settle()
  const drawer = document.querySelector('dialog.drawer')!
  expect(drawer.querySelector('h2')?.textContent).toBe('Log entry #7')
  expect(drawer.textContent).toContain('req-abc')
  expect(drawer.textContent).toContain('Channel #3: 503')
  expect(drawer.textContent).toContain('Channel #4: 502')
  expect(drawer.textContent).toContain('upstream 503: overloaded')
  render(null, page)
})

test("a request's tokens show, under them, the input its upstream read from cache", async () => {
  localStorage.setItem('tollgate.locale', 'en')
  rows = [{ ...ROW, id: 8, type: 2, status_code: 200, content: '', prompt_tokens: 12_000, completion_tokens: 40, cache_read_tokens: 11_500 }, ROW]
  const page = await mount('/logs')
  const cells = [...page.querySelectorAll('tbody tr')].map((tr) => tr.textContent ?? '')
  expect(cells[0]).toContain('12,000 / 40')
  expect(cells[0]).toContain('11,500 cached')
  expect(cells[1]).not.toContain('cached')
  render(null, page)
})
