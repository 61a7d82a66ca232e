/** Settings' payment "test": a failure is worded from its code in the reader's language, the provider's English on hover. */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { h, render } from 'preact'
import { byRole, settle, useDom } from './dom'

useDom()

const realFetch = globalThis.fetch
let answer: unknown
beforeAll(() => {
  globalThis.fetch = (async (input: string) => {
    const url = String(input)
    const ok = (data: unknown) => new Response(JSON.stringify({ success: true, message: '', data }), { headers: { 'content-type': 'application/json' } })
    if (url === '/api/status') return ok({ version: '1', system_name: 'Tollgate', setup: true, register_enabled: false, quota_per_unit: 500000, start_time: 0 })
    if (url === '/api/user/session') return ok({ id: 1, username: 'root', display_name: 'Root', role: 100, status: 1, group: 'default' })
    if (url === '/api/payment/test') return ok(answer)
    return new Response('{}', { status: 404 })
  }) as typeof fetch
})
afterAll(() => {
  globalThis.fetch = realFetch
})

async function tested(locale: string, result: unknown): Promise<HTMLElement> {
  answer = result
  localStorage.setItem('tollgate.locale', locale)
  const { I18nProvider } = await import('../../src/ui/i18n')
  const { ProviderTestButton } = await import('../../src/ui/pages/settings/provider-test')
  const container = document.createElement('div')
  document.body.append(container)
  render(h(I18nProvider, null, h(ProviderTestButton, { provider: 'creem' })), container)
  await settle()
  byRole(container, 'button').click()
  for (let i = 0; i < 200 && !container.querySelector('[role=status]'); i++) await settle()
  return container.querySelector('[role=status]') as HTMLElement
}

test('in Chinese: an HTTP error and a refused key in Chinese words, the provider’s English only on hover', async () => {
  const status = await tested('zh-CN', { supported: true, ok: false, code: 'provider_status', status: 503, message: 'Creem answered 503' })
  expect(status.textContent).toBe('测试失败：支付渠道返回 HTTP 503')
  expect(status.getAttribute('title')).toBe('Creem answered 503')
  const refused = await tested('zh-CN', { supported: true, ok: false, code: 'provider_refused', message: 'Stripe refused: Invalid API Key provided: sk_test_***' })
  expect(refused.textContent).toBe('测试失败：支付渠道拒绝了已保存的密钥')
})

test('in English, and a failure without a code keeps the server’s text', async () => {
  expect((await tested('en', { supported: true, ok: false, code: 'provider_unreachable', message: 'Creem could not be reached: ECONNREFUSED' })).textContent).toBe(
    'Test failed: the provider could not be reached (check the network or PROVIDER_ENDPOINTS)',
  )
  expect((await tested('en', { supported: true, ok: false, message: 'odd' })).textContent).toBe('Test failed: odd')
})
