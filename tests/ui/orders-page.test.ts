/**
 * The order lists in the console: the admins' Orders page filters through the API's own parameters, completes a
 * pending order only with a reason (posted with the trade number), words a refusal from its code; the wallet
 * lists the user's own orders with their state, and shows nothing to a user who never paid.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { h, render } from 'preact'
import { byLabel, byRole, settle, typeInto, useDom } from './dom'

useDom()

const now = Math.floor(Date.now() / 1000)
const order = (id: number, patch: Record<string, unknown> = {}) => ({
  id, user_id: 2, trade_no: `USR2NOabc${id}`, amount: 10, quota: 5_000_000, money: 73, currency: 'CNY', payment_method: 'alipay', payment_provider: 'epay',
  status: 'success', create_time: now - 600, complete_time: now - 500, expire_time: 0, ...patch,
})
const calls: { method: string; url: string; body?: any }[] = []
let completeAnswer: { status: number; data: unknown; message?: string } = { status: 200, data: order(1, { status: 'success' }) }
let myOrders: unknown[] = []
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
    if (url.startsWith('/api/user/topup/self')) return answer(200, { items: myOrders, total: myOrders.length, page: 1, page_size: 10 })
    if (url.startsWith('/api/user/topup?') && method === 'GET') {
      return answer(200, { items: [order(1, { status: 'pending', complete_time: 0, expire_time: now + 3000 }), order(2), order(3, { status: 'failed', payment_provider: 'stripe', payment_method: 'stripe', currency: 'USD', money: 10 })], total: 3, page: 1, page_size: 20 })
    }
    if (url === '/api/user/topup/complete') return answer(completeAnswer.status, completeAnswer.data, completeAnswer.message)
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
const lists = () => calls.filter((c) => c.method === 'GET' && c.url.startsWith('/api/user/topup?')).map((c) => new URL(c.url, 'http://x').searchParams)

async function mount(page: 'orders' | 'wallet') {
  const { I18nProvider } = await import('../../src/ui/i18n')
  const { SessionProvider, useSession } = await import('../../src/ui/state/session')
  const { ToastProvider } = await import('../../src/ui/components/toast')
  const { ConfirmProvider } = await import('../../src/ui/components/dialog')
  const { OrdersPage } = await import('../../src/ui/pages/orders')
  const { MyOrders } = await import('../../src/ui/pages/wallet/my-orders')
  localStorage.setItem('tollgate.locale', 'en')
  const container = document.createElement('div')
  document.body.replaceChildren(container)
  const Gate = () => (useSession().user ? h(page === 'orders' ? OrdersPage : MyOrders, null) : null)
  render(h(I18nProvider, null, h(SessionProvider, null, h(ToastProvider, null, h(ConfirmProvider, null, h(Gate, null))))), container)
  return container
}

test('admins: every order with its user, state and money; the filters are the API’s parameters', async () => {
  const page = await mount('orders')
  await until(() => page.textContent!.includes('USR2NOabc3'), 'for the list')
  expect(page.textContent).toContain('User #2')
  expect(page.textContent).toContain('Pending')
  expect(page.textContent).toContain('Paid')
  expect(page.textContent).toContain('Failed')
  expect(page.textContent).toContain('CN¥73.00')
  expect(page.textContent).toContain('$10.00')
  expect(page.textContent).toContain('EPay · alipay')

  const status = byLabel(page, 'State') as HTMLSelectElement
  status.value = 'pending'
  status.dispatchEvent(new Event('change', { bubbles: true }))
  await until(() => lists().at(-1)?.get('status') === 'pending', 'for the state filter')

  typeInto(byLabel(page, 'User ID'), 'abc')
  await settle()
  expect(page.textContent).toContain('A user ID is a whole number')
  const before = lists().length
  byRole(page, 'button', 'Search').click()
  await settle()
  expect(lists().length).toBe(before)

  typeInto(byLabel(page, 'User ID'), '2')
  typeInto(byLabel(page, 'Trade number'), 'abc1')
  await settle()
  byRole(page, 'button', 'Search').click()
  await until(() => lists().at(-1)?.get('keyword') === 'abc1', 'for the typed filters')
  expect(lists().at(-1)!.get('user_id')).toBe('2')
  expect(lists().at(-1)!.get('status')).toBe('pending')
})

test('admins: only a pending order can be completed, only with a reason; a refusal is worded from its code', async () => {
  const page = await mount('orders')
  await until(() => page.textContent!.includes('USR2NOabc3'))
  expect(page.querySelectorAll('[aria-label^="Complete order"]').length).toBe(1)
  byRole(page, 'button', 'Complete order USR2NOabc1').click()
  await until(() => page.textContent!.includes('Complete order USR2NOabc1 by hand'))
  expect(page.textContent).toContain('credits $10.00 to user #2')
  byRole(page, 'button', 'Complete and credit').click()
  await settle()
  expect(page.textContent).toContain('Say why the order is completed by hand.')
  expect(calls.some((c) => c.url === '/api/user/topup/complete')).toBe(false)

  completeAnswer = { status: 409, data: { code: 'already_paid' }, message: 'this order is already paid' }
  typeInto(byLabel(page, 'Reason (kept in the manage log)'), 'bank transfer, ticket 42')
  await settle()
  byRole(page, 'button', 'Complete and credit').click()
  await until(() => page.textContent!.includes('This order is already paid.'), 'for the refusal')

  completeAnswer = { status: 200, data: order(1) }
  const listed = lists().length
  byRole(page, 'button', 'Complete and credit').click()
  await until(() => page.textContent!.includes('Order USR2NOabc1 completed: $10.00 credited.'), 'for the toast')
  expect(calls.filter((c) => c.url === '/api/user/topup/complete').at(-1)!.body).toEqual({ trade_no: 'USR2NOabc1', reason: 'bank transfer, ticket 42' })
  await until(() => lists().length > listed, 'for the reload')
})

test('the wallet lists my orders with their state and until when a pending one can be paid; none, nothing shown', async () => {
  myOrders = [order(5, { status: 'pending', complete_time: 0, expire_time: now + 3000 }), order(4, { status: 'expired' })]
  const page = await mount('wallet')
  await until(() => page.textContent!.includes('USR2NOabc5'))
  expect(page.textContent).toContain('Pending')
  expect(page.textContent).toContain('until')
  expect(page.textContent).toContain('Expired')
  expect(page.querySelector('[aria-label^="Complete order"]')).toBeNull()

  myOrders = []
  const empty = await mount('wallet')
  await until(() => calls.filter((c) => c.url.startsWith('/api/user/topup/self')).length >= 2)
  await settle()
  expect(empty.textContent).not.toContain('My orders')
})
