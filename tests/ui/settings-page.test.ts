import { afterAll, beforeAll, expect, test } from 'bun:test'
import { h, render } from 'preact'
import { byLabel, byRole, settle, typeInto, useDom } from './dom'

useDom()

const options = [
  { key: 'SystemName', type: 'string', value: 'Tollgate', description: 'name shown in the UI and /api/status' },
  { key: 'ServerAddress', type: 'string', value: '', description: "the gateway's public address" },
  { key: 'DisplayInCurrencyEnabled', type: 'boolean', value: true, description: 'amounts in US$' },
  { key: 'PublicPricingEnabled', type: 'boolean', value: false, description: 'logged-out visitors may read GET /api/pricing' },
  { key: 'QuotaPerUnit', type: 'number', value: 500000, description: 'quota units per US$1' },
  { key: 'LogRetentionDays', type: 'integer', value: 0, description: 'delete usage logs older than this many days' },
  { key: 'LogConsumeEnabled', type: 'boolean', value: true, description: 'write a usage log row for every relay request' },
  { key: 'ModelRatio', type: 'json', value: {}, description: 'model → input price ratio' },
  { key: 'QuotaRemindThreshold', type: 'integer', value: 1000000, description: 'a user whose balance falls below this is notified' },
  { key: 'ShinyNewOption', type: 'integer', value: 7, description: 'something the backend added later' },
]
const puts: { key: string; value: unknown }[] = []
let statusCalls = 0
const realFetch = globalThis.fetch

beforeAll(() => {
  globalThis.fetch = (async (input: string, init?: RequestInit) => {
    const url = String(input)
    const answer = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })
    if (url === '/api/status') {
      statusCalls++
      return answer(200, { success: true, message: '', data: { version: '1', system_name: 'Tollgate', setup: true, register_enabled: false, quota_per_unit: 500000, start_time: 0 } })
    }
    if (url === '/api/user/session') return answer(200, { success: true, message: '', data: { id: 1, username: 'root', display_name: 'Root', role: 100, status: 1, group: 'default' } })
    if (url === '/api/option/' && (!init?.method || init.method === 'GET')) return answer(200, { success: true, message: '', data: options })
    if (url === '/api/option/' && init?.method === 'PUT') {
      const body = JSON.parse(String(init.body)) as { key: string; value: unknown }
      if (body.key === 'LogRetentionDays') return answer(400, { success: false, message: 'the disk is read-only' })
      puts.push(body)
      return answer(200, { success: true, message: '', data: body })
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

test('each section sends only its changed keys, typed, checks before sending and shows the server refusal', async () => {
  const { I18nProvider } = await import('../../src/ui/i18n')
  const { SessionProvider } = await import('../../src/ui/state/session')
  const { ToastProvider } = await import('../../src/ui/components/toast')
  const { SettingsPage } = await import('../../src/ui/pages/settings')
  localStorage.setItem('tollgate.locale', 'en')
  const container = document.createElement('div')
  document.body.append(container)
  render(h(I18nProvider, null, h(SessionProvider, null, h(ToastProvider, null, h(SettingsPage, null)))), container)
  await until(() => container.textContent!.includes('System name'))

  // labels and hints are ours, never the server's description; price tables are left to the pricing page
  expect(container.textContent).not.toContain('name shown in the UI')
  expect(container.textContent).not.toContain('ModelRatio')
  expect(container.textContent).toContain('Pricing page')

  byRole(container, 'button', 'Save general settings').click()
  await until(() => container.textContent!.includes('Nothing changed'))
  expect(puts).toEqual([])

  typeInto(byLabel(container, 'System name'), ' Acme ')
  typeInto(byLabel(container, 'Public address'), 'https://api.acme.test/')
  ;(byLabel(container, 'Public pricing page') as HTMLInputElement).click()
  await settle()
  byRole(container, 'button', 'Save general settings').click()
  await settle()
  expect(puts).toEqual([])
  expect(container.textContent).toContain('no trailing slash), or leave it empty')

  const before = statusCalls
  typeInto(byLabel(container, 'Public address'), 'https://api.acme.test')
  await settle()
  byRole(container, 'button', 'Save general settings').click()
  await until(() => puts.length === 3 && statusCalls > before)
  expect(puts).toEqual([
    { key: 'SystemName', value: 'Acme' },
    { key: 'ServerAddress', value: 'https://api.acme.test' },
    { key: 'PublicPricingEnabled', value: true },
  ])
  expect(statusCalls).toBe(before + 1)
  expect(container.textContent).toContain('General settings saved')

  // saved values are the new baseline: saving again sends nothing
  byRole(container, 'button', 'Save general settings').click()
  await settle()
  expect(puts).toHaveLength(3)

  typeInto(byLabel(container, 'Quota units per US$1'), '0')
  await settle()
  byRole(container, 'button', 'Save billing settings').click()
  await settle()
  expect(puts).toHaveLength(3)
  expect(container.textContent).toContain('Enter 1 or more')

  typeInto(byLabel(container, 'Keep logs for (days)'), '30')
  await settle()
  byRole(container, 'button', 'Save log settings').click()
  await until(() => container.querySelectorAll('[role="alert"]').length > 1)
  expect([...container.querySelectorAll('[role="alert"]')].map((el) => el.textContent)).toContain('the disk is read-only')

  // the low-balance warning sits with the registration quotas, in our words, its US$ beside the units
  const warning = byLabel(container, 'Low-balance warning') as HTMLInputElement
  expect(warning.value).toBe('1000000')
  expect(warning.closest('section')?.textContent).toContain('$2.00')
  expect(container.textContent).not.toContain('QuotaRemindThreshold')

  // an option this page has no section for yet still shows, by its key
  expect((byLabel(container, 'ShinyNewOption') as HTMLInputElement).value).toBe('7')
  render(null, container)
})
