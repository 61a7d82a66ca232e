import { afterAll, beforeAll, expect, test } from 'bun:test'
import { h, render } from 'preact'
import { settle, useDom } from './dom'

useDom('http://127.0.0.1:3000/register')

/**
 * The console waits for /api/status before it shows a page: a status request that fails (a node restarting
 * behind the load balancer, a network blip) is tried again, so the page is never left on "Loading" for good.
 */
const realFetch = globalThis.fetch
let statusCalls = 0
const envelope = (data: unknown, status = 200) => new Response(JSON.stringify({ success: status < 400, message: '', data }), { status, headers: { 'content-type': 'application/json' } })

beforeAll(() => {
  globalThis.fetch = (async (input: RequestInfo | URL) => {
    const url = new URL(String(input), 'http://127.0.0.1:3000')
    if (url.pathname === '/api/status') {
      statusCalls++
      // the first two fail: a 503 in the envelope, then a dropped connection
      if (statusCalls === 1) return envelope(null, 503)
      if (statusCalls === 2) throw new TypeError('fetch failed')
      return envelope({ version: 't', system_name: 'Tollgate', setup: true, register_enabled: true, quota_per_unit: 500_000, start_time: 0 })
    }
    if (url.pathname === '/api/user/session') return envelope(null)
    return envelope(null, 404)
  }) as typeof fetch
})
afterAll(() => {
  globalThis.fetch = realFetch
})

test('a failed status load is retried until it answers, and the page then renders', async () => {
  const { I18nProvider } = await import('../../src/ui/i18n')
  const { SessionProvider, useSession } = await import('../../src/ui/state/session')
  function Probe() {
    const { status } = useSession()
    return h('p', { id: 'probe' }, status ? `register ${status.register_enabled}` : 'loading')
  }
  render(h(I18nProvider, null, h(SessionProvider, null, h(Probe, null))), document.body)
  await settle()
  expect(document.getElementById('probe')!.textContent).toBe('loading')
  // retried after 250 ms, then 500 ms
  const deadline = Date.now() + 3000
  while (document.getElementById('probe')!.textContent === 'loading' && Date.now() < deadline) await Bun.sleep(25)
  expect(document.getElementById('probe')!.textContent).toBe('register true')
  expect(statusCalls).toBe(3)
})
