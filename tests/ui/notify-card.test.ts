import { afterAll, beforeAll, expect, test } from 'bun:test'
import { h, render } from 'preact'
import { byLabel, byRole, settle, typeInto, useDom } from './dom'

useDom()

/** Profile → Notifications: the saved settings shown (the secret only as "set"), saving without resending it, the Test button, a refusal in Chinese. */
const calls: { method: string; url: string; body?: Record<string, unknown> }[] = []
let saved = { notify_type: 'webhook', quota_warning_threshold: 5000, webhook_url: 'https://hooks.example/x', webhook_secret: '********', webhook_secret_set: true, notification_email: '' }
let testStatus = 200
const realFetch = globalThis.fetch

beforeAll(() => {
  globalThis.fetch = (async (input: string, init?: RequestInit) => {
    const url = String(input)
    const method = init?.method ?? 'GET'
    const body = init?.body ? JSON.parse(String(init.body)) : undefined
    calls.push({ method, url, body })
    const answer = (status: number, data: unknown, message = '') => new Response(JSON.stringify({ success: status < 400, message, data }), { status })
    if (url === '/api/status') return answer(200, { version: 't', system_name: 'T', setup: true, register_enabled: false, quota_per_unit: 500_000, display_in_currency: true, start_time: 0 })
    if (url === '/api/user/session') return answer(200, { id: 1, username: 'u', display_name: 'u', role: 1, status: 1, group: 'default' })
    if (url === '/api/user/setting' && method === 'GET') return answer(200, saved)
    if (url === '/api/user/setting' && method === 'PUT') {
      saved = { ...saved, notify_type: body.notify_type, quota_warning_threshold: body.quota_warning_threshold, webhook_url: body.webhook_url }
      return answer(200, saved)
    }
    if (url === '/api/user/setting/test') return testStatus === 200 ? answer(200, null, 'sent') : answer(502, { code: 'notify_failed' }, 'the test notification was not delivered: the receiver answered 500')
    return answer(404, null, `no route ${method} ${url}`)
  }) as typeof fetch
})
afterAll(() => {
  globalThis.fetch = realFetch
})

async function mount(locale: string) {
  const { I18nProvider } = await import('../../src/ui/i18n')
  const { ToastProvider } = await import('../../src/ui/components/toast')
  const { SessionProvider } = await import('../../src/ui/state/session')
  const { NotifyCard } = await import('../../src/ui/pages/profile/notify-card')
  localStorage.setItem('tollgate.locale', locale)
  const container = document.createElement('div')
  document.body.append(container)
  render(h(I18nProvider, null, h(SessionProvider, null, h(ToastProvider, null, h(NotifyCard, null)))), container)
  for (let i = 0; i < 200 && !container.querySelector('form'); i++) await Bun.sleep(10)
  return container
}

const until = async (check: () => boolean) => {
  for (let i = 0; i < 100 && !check(); i++) await Bun.sleep(10)
}

test('the saved webhook is shown with the secret as set; saving sends no secret unless one is typed', async () => {
  const page = await mount('en')
  expect((byLabel(page, 'Webhook URL') as HTMLInputElement).value).toBe('https://hooks.example/x')
  expect((byLabel(page, 'Webhook secret') as HTMLInputElement).value).toBe('')
  expect(page.textContent).toContain('A secret is set')
  // stored in quota units, shown and typed in US$ like every other amount, the units beside
  const threshold = byLabel(page, 'Warn below (US$)') as HTMLInputElement
  expect(threshold.value).toBe('0.01')
  expect(page.textContent).toContain('= 5,000 quota units')
  typeInto(threshold, '5,000')
  await settle()
  byRole(page, 'button', 'Save notifications').click()
  await settle()
  expect(page.textContent).toContain('The threshold must be an amount in US$, 0 or more')
  expect(calls.some((c) => c.method === 'PUT')).toBe(false)
  typeInto(threshold, '2.5')
  await settle()
  expect(page.textContent).toContain('= 1,250,000 quota units')
  byRole(page, 'button', 'Save notifications').click()
  await until(() => calls.some((c) => c.method === 'PUT'))
  const put = calls.find((c) => c.method === 'PUT')!
  expect(put.body).toEqual({ notify_type: 'webhook', quota_warning_threshold: 1_250_000, webhook_url: 'https://hooks.example/x', notification_email: '' })
  expect('webhook_secret' in put.body!).toBe(false)
  render(null, page)
  page.remove()
})

test('a failed test is worded from its code in Chinese', async () => {
  testStatus = 502
  const page = await mount('zh-CN')
  byRole(page, 'button', '发送测试').click()
  await until(() => page.querySelector('[role="alert"]') !== null)
  expect(byRole(page, 'alert').textContent).toContain('测试通知未送达')
  render(null, page)
  page.remove()
})
