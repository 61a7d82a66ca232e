import { afterAll, beforeAll, expect, test } from 'bun:test'
import { h, render } from 'preact'
import { byLabel, byRole, settle, typeInto, useDom } from './dom'

useDom()

const sent: { method: string; path: string; body?: any }[] = []
const envelope = (data: unknown, message = '') => Response.json({ success: true, message, data })
const refuse = (status: number, message: string) => Response.json({ success: false, message }, { status })
const user = { id: 7, username: 'ann', display_name: 'Ann', role: 1, status: 1, email: '', group: 'default', quota: 1_000_000, used_quota: 250_000, request_count: 12, aff_code: 'Ab3dEf', aff_count: 2, aff_quota: 1_500_000, aff_history_quota: 2_000_000, inviter_id: 0, created_time: 1_700_000_000 }
let current = { ...user }
const realFetch = globalThis.fetch

beforeAll(() => {
  globalThis.fetch = (async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(String(input), 'http://127.0.0.1:3000')
    const body = init?.body ? JSON.parse(String(init.body)) : undefined
    sent.push({ method: init?.method ?? 'GET', path: url.pathname, body })
    if (url.pathname === '/api/status') return envelope({ version: '1', system_name: 'Tollgate', setup: true, register_enabled: true, quota_per_unit: 500_000, start_time: 0, server_address: 'https://gw.example.com' })
    if (url.pathname === '/api/user/session') return envelope(current)
    if (url.pathname === '/api/user/aff') return envelope('Ab3dEf')
    if (url.pathname === '/api/user/topup/self') return envelope({ items: [], total: 0, page: 1, page_size: 10 })
    if (url.pathname === '/api/user/topup') {
      if (body.key !== 'good-code') return refuse(400, 'this code does not exist, was already used, is disabled or has expired')
      current = { ...current, quota: current.quota + 2_500_000 }
      return envelope({ quota: 2_500_000, balance: current.quota })
    }
    if (url.pathname === '/api/user/aff_transfer') {
      current = { ...current, quota: current.quota + body.quota, aff_quota: current.aff_quota - body.quota }
      return envelope({ quota_moved: body.quota, quota: current.quota, aff_quota: current.aff_quota })
    }
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

const posts = (path: string) => sent.filter((r) => r.method === 'POST' && r.path === path)

test('the wallet shows the balance with dollars, redeems a code explicitly and moves invitation quota after asking', async () => {
  const { I18nProvider } = await import('../../src/ui/i18n')
  const { SessionProvider, useSession } = await import('../../src/ui/state/session')
  const { ToastProvider } = await import('../../src/ui/components/toast')
  const { ConfirmProvider } = await import('../../src/ui/components/dialog')
  const { WalletPage } = await import('../../src/ui/pages/wallet')
  const Gate = () => (useSession().user ? h(WalletPage, null) : null)
  localStorage.setItem('tollgate.locale', 'en')
  document.body.innerHTML = '<div id="app"></div>'
  render(h(I18nProvider, null, h(SessionProvider, null, h(ToastProvider, null, h(ConfirmProvider, null, h(Gate, null))))), document.getElementById('app')!)
  await until(() => document.body.textContent!.includes('https://gw.example.com/register?aff=Ab3dEf'))
  expect(document.body.textContent).toContain('$2.00')
  expect(document.body.textContent).toContain('1,000,000 quota units')
  expect(byRole(document, 'button', 'Copy invitation link')).toBeTruthy()

  // redeem: checked, refused with the server's words, then accepted and the amount stated
  byRole(document, 'button', 'Redeem').click()
  await settle()
  expect(posts('/api/user/topup')).toHaveLength(0)
  typeInto(byLabel(document, 'Redemption code'), 'bad-code')
  await settle()
  byRole(document, 'button', 'Redeem').click()
  await until(() => Boolean(document.querySelector('.alert-error')))
  expect(document.querySelector('.alert-error')!.getAttribute('role')).toBe('alert')
  expect(document.querySelector('.alert-error')!.textContent).toContain('this code does not exist')
  typeInto(byLabel(document, 'Redemption code'), 'good-code')
  await settle()
  byRole(document, 'button', 'Redeem').click()
  await until(() => document.body.textContent!.includes('Added $5.00 to your balance. Balance now: $7.00.'))
  await until(() => document.body.textContent!.includes('3,500,000 quota units')) // the session user was refreshed

  // transfer: below one unit and above what is available are refused before sending
  typeInto(byLabel(document, 'Amount to transfer'), '0.5')
  await settle()
  byRole(document, 'button', 'Transfer to balance').click()
  await settle()
  expect(document.body.textContent).toContain('Transfer at least $1.00')
  typeInto(byLabel(document, 'Amount to transfer'), '4')
  await settle()
  byRole(document, 'button', 'Transfer to balance').click()
  await settle()
  expect(document.body.textContent).toContain('Only $3.00 is available')
  expect(posts('/api/user/aff_transfer')).toHaveLength(0)

  // a valid amount asks first; Cancel sends nothing, Transfer moves it
  typeInto(byLabel(document, 'Amount to transfer'), '2')
  await settle()
  byRole(document, 'button', 'Transfer to balance').click()
  await until(() => Boolean(document.querySelector('dialog')))
  expect(document.querySelector('dialog')!.textContent).toContain('Move $2.00 of invitation quota to your balance?')
  byRole(document, 'button', 'Cancel').click()
  await settle()
  expect(posts('/api/user/aff_transfer')).toHaveLength(0)
  byRole(document, 'button', 'Transfer to balance').click()
  await until(() => Boolean(document.querySelector('dialog')))
  byRole(document, 'button', 'Transfer').click()
  await until(() => document.body.textContent!.includes('Moved $2.00 to your balance. Balance now: $9.00.'))
  expect(posts('/api/user/aff_transfer').map((r) => r.body)).toEqual([{ quota: 1_000_000 }])
  await until(() => document.body.textContent!.includes('4,500,000 quota units'))
})
