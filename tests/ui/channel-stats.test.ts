import { afterAll, beforeAll, expect, test } from 'bun:test'
import { h, render } from 'preact'
import { settle, useDom } from './dom'

useDom()

/** The dashboard's per-channel latency and errors: the API's rows as a table, the window capped at 31 days, rates and latencies worded. */
const asked: string[] = []
const realFetch = globalThis.fetch
beforeAll(() => {
  globalThis.fetch = (async (input: string) => {
    asked.push(String(input))
    const items = [
      { channel_id: 4, name: 'busy', requests: 1200, errors: 6, error_rate: 0.005, p50_ms: 850, p95_ms: 2400 },
      { channel_id: 9, name: 'flaky', requests: 10, errors: 10, error_rate: 1, p50_ms: 0, p95_ms: 0 },
    ]
    return new Response(JSON.stringify({ success: true, message: '', data: { start: 0, end: 0, items } }))
  }) as typeof fetch
})
afterAll(() => {
  globalThis.fetch = realFetch
})

test('rows, rates and latencies; a channel with no success shows no latency', async () => {
  const { I18nProvider } = await import('../../src/ui/i18n')
  const { ChannelStats } = await import('../../src/ui/pages/dashboard/channel-stats')
  localStorage.setItem('tollgate.locale', 'en')
  const container = document.createElement('div')
  document.body.append(container)
  const end = 100 * 86_400
  render(h(I18nProvider, null, h(ChannelStats, { start: 0, end, version: 0 })), container)
  for (let i = 0; i < 5; i++) await settle()
  expect(asked[0]).toBe(`/api/data/channel_stats?start_timestamp=${end - 31 * 86_400}&end_timestamp=${end}`)
  const cells = [...container.querySelectorAll('tbody tr')].map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent?.trim()))
  expect(cells[0]).toEqual(expect.arrayContaining(['#4 busy', '1,200', '6', '0.5%', '850 ms', '2,400 ms']))
  expect(cells[1]).toEqual(expect.arrayContaining(['#9 flaky', '100%', '—']))
})
