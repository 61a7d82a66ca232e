/** Settings: a section per payment provider, with the address to paste at the provider (from the server address) and its Copy button. */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { h, render } from 'preact'
import { byLabel, useDom } from './dom'

useDom()

const entry = (key: string, type: string, value: unknown) => ({ key, type, value, description: `server words for ${key}` })
const options = [
  entry('ServerAddress', 'string', 'https://gw.example.com'),
  entry('CustomCallbackAddress', 'string', ''),
  entry('PayAddress', 'string', 'https://pay.example.com'),
  entry('EpayId', 'string', '1001'),
  { ...entry('EpayKey', 'string', ''), configured: true },
  { ...entry('StripeApiSecret', 'string', ''), configured: true },
  { ...entry('StripeWebhookSecret', 'string', ''), configured: false },
  entry('StripeUnitPrice', 'number', 1),
  { ...entry('CreemApiKey', 'string', ''), configured: false },
  entry('CreemProducts', 'string', '[]'),
]
const realFetch = globalThis.fetch

beforeAll(() => {
  globalThis.fetch = (async (input: string) => {
    const url = String(input)
    const answer = (data: unknown) => new Response(JSON.stringify({ success: true, message: '', data }), { headers: { 'content-type': 'application/json' } })
    if (url === '/api/status') return answer({ version: '1', system_name: 'Tollgate', setup: true, register_enabled: false, quota_per_unit: 500000, start_time: 0 })
    if (url === '/api/user/session') return answer({ id: 1, username: 'root', display_name: 'Root', role: 100, status: 1, group: 'default' })
    if (url === '/api/option/') return answer(options)
    return new Response('{}', { status: 404 })
  }) as typeof fetch
})
afterAll(() => {
  globalThis.fetch = realFetch
})

test('each provider has its section, in our words; Stripe and Creem show the webhook address to paste, with Copy', async () => {
  const { I18nProvider } = await import('../../src/ui/i18n')
  const { SessionProvider } = await import('../../src/ui/state/session')
  const { ToastProvider } = await import('../../src/ui/components/toast')
  const { SettingsPage } = await import('../../src/ui/pages/settings')
  localStorage.setItem('tollgate.locale', 'en')
  const container = document.createElement('div')
  document.body.append(container)
  render(h(I18nProvider, null, h(SessionProvider, null, h(ToastProvider, null, h(SettingsPage, null)))), container)
  for (let i = 0; i < 200 && !container.textContent!.includes('Webhook signing secret'); i++) await Bun.sleep(10)
  for (const title of ['Online top-up', 'EPay (易支付)', 'Stripe', 'Creem']) expect([...container.querySelectorAll('h2')].some((h2) => h2.textContent === title)).toBe(true)
  expect(container.textContent).toContain('https://gw.example.com/api/stripe/webhook')
  expect(container.textContent).toContain('https://gw.example.com/api/creem/webhook')
  expect(container.textContent).toContain('https://gw.example.com/api/user/epay/notify')
  expect(container.querySelectorAll('[aria-label="Copy: Address to paste at the provider"]').length).toBe(3)
  // labels and hints are the catalog's, never the server's description or the raw key
  expect(container.textContent).not.toContain('server words for')
  expect((byLabel(container, 'Merchant ID (pid)') as HTMLInputElement).value).toBe('1001')
  expect((byLabel(container, 'Webhook signing secret') as HTMLInputElement).type).toBe('password')
})
