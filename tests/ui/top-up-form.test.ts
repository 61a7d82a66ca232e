/** The wallet's online top-up: offered only when a provider is on; a preset asks the price and says "you pay X, you get Y"; Pay asks the server for the provider's page. */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { h, render } from 'preact'
import { byLabel, byRole, settle, useDom } from './dom'

useDom()

const sent: { method: string; path: string; body?: any }[] = []
const envelope = (data: unknown) => Response.json({ success: true, message: '', data })
const realFetch = globalThis.fetch
const info = {
  enable_online_topup: true,
  enable_stripe_topup: true,
  enable_creem_topup: false,
  pay_methods: [{ name: 'Alipay', type: 'alipay', provider: 'epay' }, { name: 'Stripe', type: 'stripe', provider: 'stripe' }],
  amount_options: [10, 100],
  discount: { '100': 0.9 },
  creem_products: [],
}

beforeAll(() => {
  globalThis.fetch = (async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(String(input), 'http://127.0.0.1:3000')
    sent.push({ method: init?.method ?? 'GET', path: url.pathname, body: init?.body ? JSON.parse(String(init.body)) : undefined })
    if (url.pathname === '/api/user/topup/info') return envelope(info)
    if (url.pathname === '/api/user/amount') return envelope({ money: '657.00', currency: 'CNY', quota: 50_000_000 })
    if (url.pathname === '/api/user/stripe/amount') return envelope({ money: '90.00', currency: 'USD', quota: 50_000_000 })
    return new Response('not found', { status: 404 })
  }) as typeof fetch
})
afterAll(() => {
  globalThis.fetch = realFetch
})

async function until(check: () => boolean, ms = 2000) {
  const end = Date.now() + ms
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out; page: ' + document.body.textContent)
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

test('presets with their discount, the price for the chosen method, in words', async () => {
  const { I18nProvider } = await import('../../src/ui/i18n')
  const { TopUpForm } = await import('../../src/ui/pages/wallet/top-up-form')
  localStorage.setItem('tollgate.locale', 'en')
  document.body.innerHTML = '<div id="app"></div>'
  render(h(I18nProvider, null, h(TopUpForm, null)), document.getElementById('app')!)
  await until(() => document.body.textContent!.includes('Top up online'))
  expect(byRole(document, 'button', '$100.00 (−10%)')).toBeTruthy()
  byRole(document, 'button', '$100.00 (−10%)').click()
  await until(() => document.body.textContent!.includes('You pay 657.00 CNY, you get US$100 of quota.'))
  expect(sent.filter((r) => r.path === '/api/user/amount').at(-1)!.body).toEqual({ amount: 100 })
  const method = byLabel(document, 'Payment method') as HTMLSelectElement
  method.value = 'stripe'
  method.dispatchEvent(new Event('change', { bubbles: true }))
  await settle()
  await until(() => document.body.textContent!.includes('You pay 90.00 USD'))
})
