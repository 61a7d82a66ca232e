/**
 * Plans in the console: root's Plans page lists plans and saves one with new-api's fields (a refusal worded from its
 * code), disables one; the wallet shows a held plan's period use and reset, changes what pays first and buys a plan
 * through Stripe; the user drawer's grant posts the chosen plan. en and zh-CN.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { h, render } from 'preact'
import { byLabel, byRole, settle, typeInto, useDom } from './dom'

useDom()

const now = Math.floor(Date.now() / 1000)
const plan = (id: number, patch: Record<string, unknown> = {}) => ({
  id, title: `Pro ${id}`, subtitle: '', price_amount: 9.9, currency: 'USD', duration_unit: 'month', duration_value: 1, custom_seconds: 0, enabled: true, sort_order: 0,
  stripe_price_id: '', creem_product_id: '', max_purchase_per_user: 0, total_amount: 5_000_000, quota_reset_period: 'daily', quota_reset_custom_seconds: 0, models: '', groups: '',
  created_at: now, updated_at: now, ...patch,
})
const held = { subscription: { id: 7, user_id: 1, plan_id: 1, amount_total: 5_000_000, amount_used: 1_000_000, start_time: now - 60, end_time: now + 86_400 * 30, status: 'active', source: 'order', last_reset_time: now - 60, next_reset_time: now + 3600, trade_no: '' }, plan: { id: 1, title: 'Pro 1', subtitle: '', quota_reset_period: 'daily', models: '', groups: '' } }
const calls: { method: string; url: string; body?: any }[] = []
let saveAnswer: { status: number; data: unknown; message?: string } = { status: 200, data: plan(3, { title: 'Team' }) }
const realFetch = globalThis.fetch

beforeAll(() => {
  globalThis.fetch = (async (input: string, init?: RequestInit) => {
    const url = String(input)
    const method = init?.method ?? 'GET'
    const body = init?.body ? JSON.parse(String(init.body)) : undefined
    calls.push({ method, url, body })
    const answer = (status: number, data: unknown, message = '') => new Response(JSON.stringify({ success: status < 400, message, data }), { status })
    if (url === '/api/status') return answer(200, { version: '1', system_name: 'T', setup: true, register_enabled: false, quota_per_unit: 500000, start_time: 0 })
    if (url === '/api/user/session') return answer(200, { id: 1, username: 'root', role: 100, status: 1, quota: 0, used_quota: 0, request_count: 0, group: 'default' })
    if (url === '/api/subscription/admin/plans' && method === 'GET') return answer(200, [{ plan: plan(1) }, { plan: plan(2, { enabled: false, title: 'Old' }) }])
    if (url === '/api/subscription/admin/plans' && method === 'POST') return answer(saveAnswer.status, saveAnswer.data, saveAnswer.message)
    if (url.startsWith('/api/subscription/admin/plans/') && method === 'PATCH') return answer(200, plan(1, { enabled: false }))
    if (url === '/api/subscription/plans') return answer(200, [{ plan: plan(1) }])
    if (url === '/api/subscription/self') return answer(200, { billing_preference: 'subscription_first', subscriptions: [held], all_subscriptions: [held] })
    if (url === '/api/subscription/self/preference') return answer(200, body)
    if (url === '/api/user/topup/info') return answer(200, { enable_online_topup: false, enable_stripe_topup: true, enable_creem_topup: false, pay_methods: [], amount_options: [], discount: {}, creem_products: [] })
    if (url === '/api/subscription/stripe/pay') return answer(200, { pay_link: 'https://checkout.example/pay/1', trade_no: 'x' })
    if (url === '/api/subscription/admin/users/5/subscriptions') return answer(200, held)
    return answer(404, null, `no route ${method} ${url}`)
  }) as typeof fetch
})
afterAll(() => {
  globalThis.fetch = realFetch
})

const until = async (check: () => boolean, what = '') => {
  for (let i = 0; i < 200 && !check(); i++) await Bun.sleep(10)
  if (!check()) throw new Error(`timed out ${what}; page: ${document.body.textContent}`)
}

async function mount(page: 'plans' | 'wallet' | 'grant', locale = 'en') {
  const { I18nProvider } = await import('../../src/ui/i18n')
  const { SessionProvider, useSession } = await import('../../src/ui/state/session')
  const { ToastProvider } = await import('../../src/ui/components/toast')
  const { ConfirmProvider } = await import('../../src/ui/components/dialog')
  const { PlansPage } = await import('../../src/ui/pages/plans')
  const { PlansCard } = await import('../../src/ui/pages/wallet/plans-card')
  const { GrantPlan } = await import('../../src/ui/pages/users/grant-plan')
  localStorage.setItem('tollgate.locale', locale)
  const container = document.createElement('div')
  document.body.replaceChildren(container)
  const Gate = () => (useSession().user ? (page === 'plans' ? h(PlansPage, null) : page === 'wallet' ? h(PlansCard, null) : h(GrantPlan, { userId: 5 })) : null)
  render(h(I18nProvider, null, h(SessionProvider, null, h(ToastProvider, null, h(ConfirmProvider, null, h(Gate, null))))), container)
  return container
}

test('root: the plans with price, quota and reset; a new plan posts new-api fields; a refusal is worded from its code; disable', async () => {
  const page = await mount('plans')
  await until(() => page.textContent!.includes('Pro 1'), 'for the list')
  expect(page.textContent).toContain('9.90 USD')
  expect(page.textContent).toContain('Daily (00:00 UTC)')
  expect(page.textContent).toContain('Disabled')
  byRole(page, 'button', 'New plan').click()
  await until(() => !!document.querySelector('dialog'), 'for the form')
  typeInto(byLabel(document.body, 'Title'), 'Team')
  // the quota is typed in US$ like every other amount (a new plan offers US$10), the units beside it
  const total = byLabel(document.body, 'Quota per period (US$; 0 = no cap)') as HTMLInputElement
  expect(total.value).toBe('10')
  typeInto(total, 'lots')
  await settle()
  byRole(document.body, 'button', 'Save plan').click()
  await settle()
  expect(document.body.textContent).toContain('An amount in US$, 0 or more')
  expect(calls.some((c) => c.method === 'POST')).toBe(false)
  typeInto(total, '2')
  await settle()
  expect(document.body.textContent).toContain('= 1,000,000 quota units')
  saveAnswer = { status: 400, data: { code: 'invalid_plan' }, message: 'currency must be one of USD, CNY' }
  await settle()
  byRole(document.body, 'button', 'Save plan').click()
  await until(() => document.body.textContent!.includes('The plan is not valid'), 'for the refusal')
  saveAnswer = { status: 200, data: plan(3, { title: 'Team' }) }
  byRole(document.body, 'button', 'Save plan').click()
  await until(() => document.body.textContent!.includes('Plan Team saved.'), 'for the toast')
  expect(calls.filter((c) => c.method === 'POST').at(-1)!.body).toMatchObject({ title: 'Team', total_amount: 1_000_000, duration_unit: 'month', quota_reset_period: 'monthly', currency: 'USD' })
  byRole(page, 'button', 'Enable or disable plan Pro 1').click()
  await until(() => calls.some((c) => c.method === 'PATCH'), 'for the toggle')
  expect(calls.find((c) => c.method === 'PATCH')).toMatchObject({ url: '/api/subscription/admin/plans/1', body: { enabled: false } })
})

test("the wallet: a held plan's use this period and its reset; what pays first; buying with Stripe", async () => {
  const page = await mount('wallet')
  await until(() => page.textContent!.includes('Your plans'), 'for the card')
  expect(page.textContent).toContain('$2.00 of $10.00 used this period')
  expect(page.textContent).toContain('Resets')
  byRole(page, 'button', 'Pay Pro 1 with Stripe').click()
  await until(() => calls.some((c) => c.url === '/api/subscription/stripe/pay'), 'for the checkout')
  expect(calls.find((c) => c.url === '/api/subscription/stripe/pay')!.body).toEqual({ plan_id: 1 })
  const preference = byLabel(page, 'What pays first') as HTMLSelectElement
  preference.value = 'wallet_first'
  preference.dispatchEvent(new Event('change', { bubbles: true }))
  await until(() => calls.some((c) => c.url === '/api/subscription/self/preference'), 'for the preference')
  expect(calls.find((c) => c.url === '/api/subscription/self/preference')!.body).toEqual({ billing_preference: 'wallet_first' })
})

test('the user drawer grants the chosen plan; zh-CN words the card', async () => {
  const grant = await mount('grant')
  await until(() => grant.textContent!.includes('Grant a plan'), 'for the control')
  byRole(grant, 'button', 'Grant').click()
  await until(() => document.body.textContent!.includes('Plan Pro 1 granted.'), 'for the toast')
  expect(calls.find((c) => c.url === '/api/subscription/admin/users/5/subscriptions')!.body).toEqual({ plan_id: 1 })
  const page = await mount('wallet', 'zh-CN')
  await until(() => page.textContent!.includes('我的套餐'), 'for the Chinese card')
  expect(page.textContent).toContain('扣费顺序')
})

test("the plan editor's upgrade group: posted as upgrade_group, a group GroupRatio lacks worded from its code (en and zh-CN)", async () => {
  for (const [locale, label, refusal] of [['en', 'Upgrade group', 'This group is not in GroupRatio'], ['zh-CN', '升级分组', '该分组不在分组倍率']] as const) {
    const page = await mount('plans', locale)
    await until(() => page.textContent!.includes('Pro 1'), 'for the list')
    byRole(page, 'button', locale === 'en' ? 'New plan' : '新建套餐').click()
    await until(() => !!document.querySelector('dialog'), 'for the form')
    typeInto(byLabel(document.body, locale === 'en' ? 'Title' : '标题'), 'VIP')
    typeInto(byLabel(document.body, label), 'gold')
    saveAnswer = { status: 400, data: { code: 'unknown_group' }, message: 'group "gold" is not in GroupRatio' }
    await settle()
    byRole(document.body, 'button', locale === 'en' ? 'Save plan' : '保存套餐').click()
    await until(() => document.body.textContent!.includes(refusal), 'for the refusal')
    expect(calls.filter((c) => c.method === 'POST').at(-1)!.body).toMatchObject({ title: 'VIP', upgrade_group: 'gold' })
  }
  saveAnswer = { status: 200, data: plan(3, { title: 'Team' }) }
})
