import { afterAll, beforeAll, expect, test } from 'bun:test'
import { h, render } from 'preact'
import { byLabel, byRole, settle, typeInto, useDom } from './dom'

// opened from the setup link the server logs: the code comes filled in
useDom('http://192.0.2.2:3000/setup?code=ABCD-EFGH-JKMN')

/** The setup page asks for the setup code when the server says this visitor needs it, says where to find it, and sends it. */
const realFetch = globalThis.fetch
const posts: Record<string, unknown>[] = []
let answers: { status: number; message: string }[] = []

beforeAll(() => {
  globalThis.fetch = (async (input: string, init?: RequestInit) => {
    const url = String(input)
    const answer = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })
    if (url === '/api/status') return answer(200, { success: true, message: '', data: { version: '1', system_name: 'Tollgate', setup: false, register_enabled: false, quota_per_unit: 500000, start_time: 0 } })
    if (url === '/api/user/session') return answer(401, { success: false, message: 'not logged in', data: null })
    if (url === '/api/setup' && (init?.method ?? 'GET') === 'GET') return answer(200, { success: true, message: '', data: { status: false, root_init: false, code_required: true } })
    if (url === '/api/setup' && init?.method === 'POST') {
      posts.push(JSON.parse(String(init.body)))
      const next = answers.shift() ?? { status: 200, message: '' }
      return answer(next.status, { success: next.status === 200, message: next.message, data: null })
    }
    return answer(404, { success: false, message: `no route ${url}` })
  }) as typeof fetch
})
afterAll(() => {
  globalThis.fetch = realFetch
})

const until = async (check: () => boolean) => {
  for (let i = 0; i < 50 && !check(); i++) await settle()
}

test('a visitor from the network gets a labelled setup-code field, filled from the link, with where to find the code', async () => {
  const { I18nProvider } = await import('../../src/ui/i18n')
  const { SessionProvider } = await import('../../src/ui/state/session')
  const { SetupPage } = await import('../../src/ui/pages/auth/setup')
  localStorage.setItem('tollgate.locale', 'en')
  const container = document.createElement('div')
  document.body.append(container)
  render(h(I18nProvider, null, h(SessionProvider, null, h(SetupPage, null))), container)
  await until(() => container.textContent!.includes('Setup code'))

  const field = byLabel(container, 'Setup code') as HTMLInputElement
  expect(field.value).toBe('ABCD-EFGH-JKMN')
  const hint = document.getElementById(field.getAttribute('aria-describedby')!.split(' ')[0]!)!
  expect(hint.textContent).toContain('journalctl -u tollgate')

  typeInto(byLabel(container, 'Username'), 'owner')
  typeInto(byLabel(container, 'Password'), 'owner-password-1')
  typeInto(byLabel(container, 'Confirm password'), 'owner-password-1')
  typeInto(field, 'WRNG-WRNG-WRNG')
  answers = [{ status: 403, message: 'wrong setup code: it is printed in the server log' }]
  await settle()
  byRole(container, 'button', 'Create root account').click()
  await until(() => posts.length === 1 && container.querySelector('[role="alert"]') !== null)
  expect(posts[0]).toEqual({ username: 'owner', password: 'owner-password-1', confirmPassword: 'owner-password-1', code: 'WRNG-WRNG-WRNG', usage: 'self' })
  expect(byRole(container, 'alert').textContent).toBe('That is not the setup code. Copy it from the server’s log.')

  answers = [{ status: 429, message: 'too many setup attempts' }]
  byRole(container, 'button', 'Create root account').click()
  await until(() => posts.length === 2 && byRole(container, 'alert').textContent!.includes('Too many'))
  expect(byRole(container, 'alert').textContent).toBe('Too many attempts from your address. Wait a minute, then try again.')

  // the one question: who the instance is for, sent with the account (the server sets self-use mode and sign-ups)
  const publicChoice = byLabel(container, 'The public, with billing') as HTMLInputElement
  expect((byLabel(container, 'Just me') as HTMLInputElement).checked).toBe(true)
  publicChoice.click()
  await settle()
  expect(publicChoice.checked).toBe(true)
  answers = [{ status: 403, message: 'wrong' }]
  byRole(container, 'button', 'Create root account').click()
  await until(() => posts.length === 3)
  expect(posts[2]).toMatchObject({ usage: 'public' })
})
