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
    if (url === '/api/user/setting') return answer({ notify_type: 'email', quota_warning_threshold: 1_000_000, webhook_url: '', webhook_secret_set: false, notification_email: '' })
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

/**
 * Amounts are typed in US$ everywhere, with the quota units they make shown beside (never a field labelled in
 * quota units): a label or hint that asks for "(quota units…)" is a page that slipped back to the raw unit.
 * The notification threshold and a plan's quota per period did, before they became US$ fields.
 */
test('no catalog string labels an amount in raw quota units, in any language', async () => {
  const { en } = await import('../../src/ui/i18n/en')
  const { zhCN } = await import('../../src/ui/i18n/zh-CN')
  const raw = /\(\s*(quota units?|额度单位)/i
  for (const [lang, catalog] of Object.entries({ en, 'zh-CN': zhCN })) {
    const offending = Object.entries(catalog as Record<string, string>).filter(([, text]) => raw.test(text))
    expect({ lang, offending }).toEqual({ lang, offending: [] })
  }
})

test('the notification threshold and a plan’s quota are typed in US$, the units beside, also with DisplayInCurrencyEnabled off', async () => {
  const { I18nProvider } = await import('../../src/ui/i18n')
  const { SessionProvider, useSession } = await import('../../src/ui/state/session')
  const { ToastProvider } = await import('../../src/ui/components/toast')
  const { NotifyCard } = await import('../../src/ui/pages/profile/notify-card')
  const { PlanForm } = await import('../../src/ui/pages/plans/plan-form')
  localStorage.setItem('tollgate.locale', 'en')
  const container = document.createElement('div')
  document.body.replaceChildren(container)
  const Gate = () => (useSession().status ? h('div', null, h(NotifyCard, null), h(PlanForm, { onClose() {}, onSaved() {} })) : null)
  render(h(I18nProvider, null, h(SessionProvider, null, h(ToastProvider, null, h(Gate, null)))), container)
  for (let i = 0; i < 200 && !document.body.textContent?.includes('Warn below'); i++) await Bun.sleep(10)
  const labels = [...document.querySelectorAll('label')].map((label) => label.textContent)
  expect(labels).toEqual(expect.arrayContaining(['Warn below (US$)', 'Quota per period (US$; 0 = no cap)']))
  // the stored 1,000,000 units show as US$2 at 500,000 units per US$1, the units beside
  const threshold = [...document.querySelectorAll('label')].find((label) => label.textContent === 'Warn below (US$)')!
  expect((document.getElementById(threshold.htmlFor) as HTMLInputElement).value).toBe('2')
  expect(document.body.textContent).toContain('= 1,000,000 quota units')
})
