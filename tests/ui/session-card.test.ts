import { afterAll, beforeAll, expect, test } from 'bun:test'
import { h, render } from 'preact'
import type { memoryLocation } from 'wouter-preact/memory-location'
import { byRole, settle, useDom } from './dom'

useDom()

const calls: { method: string; url: string }[] = []
let logoutAllStatus = 200
const realFetch = globalThis.fetch

beforeAll(() => {
  globalThis.fetch = (async (input: string, init?: RequestInit) => {
    const url = String(input)
    const method = init?.method ?? 'GET'
    calls.push({ method, url })
    const answer = (status: number, data: unknown, message = '') => new Response(JSON.stringify({ success: status < 400, message, data }), { status })
    if (url === '/api/status') return answer(200, { version: '1', system_name: 'T', setup: true, register_enabled: false, quota_per_unit: 500000, start_time: 0 })
    if (url === '/api/user/session') return answer(200, { id: 2, username: 'alice', display_name: 'alice', role: 1, status: 1, group: 'default', quota: 0 })
    if (url === '/api/user/logout_all' && method === 'POST') return logoutAllStatus === 200 ? answer(200, null, 'logged out everywhere') : answer(logoutAllStatus, null, 'the server is busy')
    if (url === '/api/user/logout') return answer(200, null, 'logged out')
    return answer(404, null, `no route ${method} ${url}`)
  }) as typeof fetch
})
afterAll(() => {
  globalThis.fetch = realFetch
})

let memory: ReturnType<typeof memoryLocation>

async function mount() {
  const { I18nProvider } = await import('../../src/ui/i18n')
  const { SessionProvider, useSession } = await import('../../src/ui/state/session')
  const { ConfirmProvider } = await import('../../src/ui/components/dialog')
  const { SessionCard } = await import('../../src/ui/pages/profile/session-card')
  const { Router } = await import('wouter-preact')
  memory = (await import('wouter-preact/memory-location')).memoryLocation({ path: '/profile', record: true })
  localStorage.setItem('tollgate.locale', 'en')
  const Gate = () => (useSession().user ? h(SessionCard, null) : h('p', null, 'logged out'))
  const container = document.createElement('div')
  document.body.append(container)
  render(h(I18nProvider, null, h(SessionProvider, null, h(ConfirmProvider, null, h(Router, { hook: memory.hook, children: h(Gate, null) })))), container)
  for (let i = 0; i < 5; i++) await settle()
  return container
}

const until = async (check: () => boolean) => {
  for (let i = 0; i < 100 && !check(); i++) await Bun.sleep(10)
}

test('log out everywhere asks first, posts logout_all and lands on /login; a refusal is shown and keeps the user here', async () => {
  const page = await mount()
  // a refusal: the server's message shown, still logged in, no navigation
  logoutAllStatus = 503
  byRole(page, 'button', 'Log out everywhere').click()
  await settle()
  byRole(page, 'button', 'End every session').click()
  await until(() => page.querySelector('[role="alert"]') !== null)
  expect(byRole(page, 'alert').textContent).toBe('the server is busy')
  expect(memory.history!.at(-1)).toBe('/profile')

  // cancelled: nothing sent
  const sent = () => calls.filter((c) => c.url === '/api/user/logout_all').length
  byRole(page, 'button', 'Log out everywhere').click()
  await settle()
  byRole(page, 'button', 'Cancel').click()
  await settle()
  expect(sent()).toBe(1)

  logoutAllStatus = 200
  byRole(page, 'button', 'Log out everywhere').click()
  await settle()
  byRole(page, 'button', 'End every session').click()
  await until(() => memory.history!.at(-1) === '/login')
  expect(sent()).toBe(2)
  expect(calls.filter((c) => c.url === '/api/user/logout_all').every((c) => c.method === 'POST')).toBe(true)
  expect(calls.some((c) => c.url === '/api/user/logout')).toBe(false)
  await until(() => page.textContent!.includes('logged out'))
  render(null, page)
})
