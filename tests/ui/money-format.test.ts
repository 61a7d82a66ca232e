/**
 * One money format (DisplayInCurrencyEnabled): with it off, every amount the console shows is in quota units
 * with no dollar sign beside it; with it on, in US$ (tests/ui/wallet-page.test.ts and the others show that side).
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { h, render } from 'preact'
import { useDom } from './dom'

useDom()

const realFetch = globalThis.fetch
const me = { id: 1, username: 'root', display_name: 'root', role: 100, status: 1, email: '', group: 'default', quota: 2_500_000, used_quota: 750_000, request_count: 3, aff_code: 'x', aff_count: 0, aff_quota: 0, aff_history_quota: 0, inviter_id: 0, created_time: 0 }

beforeAll(() => {
  globalThis.fetch = (async (input: string) => {
    const url = String(input)
    const answer = (data: unknown) => new Response(JSON.stringify({ success: true, message: '', data }))
    if (url === '/api/status') return answer({ version: '1', system_name: 'T', setup: true, register_enabled: false, quota_per_unit: 500000, display_in_currency: false, start_time: 0 })
    if (url === '/api/user/session' || url === '/api/user/self') return answer(me)
    if (url.startsWith('/api/user/aff')) return answer('x')
    return new Response(JSON.stringify({ success: false, message: `no route ${url}` }), { status: 404 })
  }) as typeof fetch
})
afterAll(() => {
  globalThis.fetch = realFetch
})

test('DisplayInCurrencyEnabled off: the wallet shows quota units only', async () => {
  const { I18nProvider } = await import('../../src/ui/i18n')
  const { SessionProvider, useSession } = await import('../../src/ui/state/session')
  const { ToastProvider } = await import('../../src/ui/components/toast')
  const { ConfirmProvider } = await import('../../src/ui/components/dialog')
  const { WalletPage } = await import('../../src/ui/pages/wallet')
  localStorage.setItem('tollgate.locale', 'en')
  const container = document.createElement('div')
  document.body.append(container)
  const Gate = () => (useSession().user ? h(WalletPage, null) : null)
  render(h(I18nProvider, null, h(SessionProvider, null, h(ToastProvider, null, h(ConfirmProvider, null, h(Gate, null))))), container)
  for (let i = 0; i < 200 && !container.querySelector('.figure'); i++) await Bun.sleep(10)
  const figures = [...container.querySelectorAll('.figure')].map((el) => el.textContent)
  expect(figures.slice(0, 2)).toEqual(['2,500,000', '750,000'])
  expect(container.querySelector('.cards')!.textContent).not.toContain('$')
})
