import { afterAll, beforeAll, expect, test } from 'bun:test'
import { h, render } from 'preact'
import { byLabel, byRole, settle, typeInto, useDom } from './dom'

useDom()

const user = (id: number, username: string, role = 1) => ({
  id, username, display_name: username, role, status: 1, email: '', group: 'default', quota: 1_000_000, used_quota: 0, request_count: 0,
  aff_code: '', aff_count: 0, aff_quota: 0, aff_history_quota: 0, inviter_id: 0, created_time: 0,
})
const calls: { method: string; url: string; body?: unknown }[] = []
const realFetch = globalThis.fetch

beforeAll(() => {
  globalThis.fetch = (async (input: string, init?: RequestInit) => {
    const url = String(input)
    const method = init?.method ?? 'GET'
    const body = init?.body ? JSON.parse(String(init.body)) : undefined
    calls.push({ method, url, body })
    const answer = (status: number, data: unknown, message = '') => new Response(JSON.stringify({ success: status < 400, message, data }), { status })
    if (url === '/api/status') return answer(200, { version: '1', system_name: 'T', setup: true, register_enabled: false, quota_per_unit: 500000, start_time: 0 })
    if (url === '/api/user/session') return answer(200, user(1, 'root', 100))
    if (url === '/api/user/self/groups') return answer(200, { default: { ratio: 1, desc: 'default' }, vip: { ratio: 2, desc: 'vip' } })
    if (url.startsWith('/api/user/search')) return answer(200, { items: [], total: 0, page: 1, page_size: 20 })
    if (url.startsWith('/api/user/?') && method === 'GET') return answer(200, { items: [user(2, 'alice'), user(1, 'root', 100)], total: 2, page: 1, page_size: 20 })
    if (url === '/api/user/' && method === 'POST') return body.username === 'taken' ? answer(409, null, 'the username "taken" is taken') : answer(200, user(3, body.username))
    return answer(404, null, `no route ${method} ${url}`)
  }) as typeof fetch
})
afterAll(() => {
  globalThis.fetch = realFetch
})

const until = async (check: () => boolean) => {
  for (let i = 0; i < 100 && !check(); i++) await Bun.sleep(10)
}

test('users: the list with roles and dollars, a new user checked before sending, the refusal shown, an empty search', async () => {
  const { I18nProvider } = await import('../../src/ui/i18n')
  const { SessionProvider, useSession } = await import('../../src/ui/state/session')
  const { ToastProvider } = await import('../../src/ui/components/toast')
  const { ConfirmProvider } = await import('../../src/ui/components/dialog')
  const { UsersPage } = await import('../../src/ui/pages/users')
  localStorage.setItem('tollgate.locale', 'en')
  const container = document.createElement('div')
  document.body.append(container)
  // as the shell does: pages render once someone is logged in
  const Gate = () => (useSession().user ? h(UsersPage, null) : null)
  render(h(I18nProvider, null, h(SessionProvider, null, h(ToastProvider, null, h(ConfirmProvider, null, h(Gate, null))))), container)
  await until(() => container.textContent!.includes('alice'))
  expect(container.textContent).toContain('$2.00')
  expect(container.textContent).toContain('Root')
  // nobody manages themselves: only alice has a menu
  expect(container.querySelectorAll('[aria-label^="Actions for"]').length).toBe(1)
  byRole(container, 'button', 'Actions for alice')

  byRole(container, 'button', 'New user').click()
  await settle()
  byRole(container, 'button', 'Create user').click()
  await settle()
  expect(calls.filter((c) => c.method === 'POST')).toEqual([])
  expect(container.textContent).toContain('Fill in this field')

  typeInto(byLabel(container, 'Username'), 'taken')
  typeInto(byLabel(container, 'Password'), 'password-123')
  typeInto(byLabel(container, 'Quota (US$)'), '2.5')
  ;(byLabel(container, 'Role') as HTMLSelectElement).value = '10'
  byLabel(container, 'Role').dispatchEvent(new (globalThis as any).window.Event('change', { bubbles: true }))
  await settle()
  expect(container.textContent).toContain('= 1,250,000 quota units')
  byRole(container, 'button', 'Create user').click()
  await until(() => container.querySelector('[role="alert"]') !== null)
  expect(calls.filter((c) => c.method === 'POST').map((c) => c.body)).toEqual([{ username: 'taken', password: 'password-123', role: 10, group: 'default', quota: 1_250_000 }])
  expect(byRole(container, 'alert').textContent).toBe('the username "taken" is taken')
  byRole(container, 'button', 'Cancel').click()
  await settle()

  typeInto(byLabel(container, 'Search'), 'nobody')
  await until(() => container.textContent!.includes('No users match'))
  expect(calls.some((c) => c.url.startsWith('/api/user/search?keyword=nobody'))).toBe(true)
  byRole(container, 'button', 'Clear search')
  render(null, container)
})
