/** The playground starts on a model that can chat and has a price, remembers the one picked, and warns when none has a price. */
import { afterAll, afterEach, beforeAll, expect, test } from 'bun:test'
import { h, render } from 'preact'
import { byLabel, useDom } from './dom'

useDom()

type Item = { model: string; priced: boolean; mode: string }
let userModels: string[] = []
let pricing: { self_use_mode: boolean; items: Item[] } = { self_use_mode: false, items: [] }
const priced = (model: string): Item => ({ model, priced: true, mode: 'ratio' })
const unpriced = (model: string): Item => ({ model, priced: false, mode: 'none' })

const realFetch = globalThis.fetch
beforeAll(() => {
  globalThis.fetch = (async (input: string) => {
    const url = String(input)
    const answer = (data: unknown) => Response.json({ success: true, message: '', data })
    if (url === '/api/status') return answer({ version: '1', system_name: 'T', setup: true, register_enabled: false, quota_per_unit: 500000, start_time: 0 })
    if (url === '/api/user/session') return answer({ id: 1, username: 'root', display_name: 'Root', role: 100, status: 1, email: '', group: 'default', quota: 0, used_quota: 0, request_count: 0, aff_code: '', aff_count: 0, aff_quota: 0, aff_history_quota: 0, inviter_id: 0, created_time: 0 })
    if (url === '/api/user/models') return answer(userModels)
    if (url === '/api/pricing') return answer({ group: 'default', group_ratio: 1, quota_per_unit: 500000, unpriced_models: [], ...pricing })
    return Response.json({ success: false, message: `no route ${url}` }, { status: 404 })
  }) as typeof fetch
})
afterAll(() => {
  globalThis.fetch = realFetch
})

let container: HTMLElement
afterEach(() => {
  render(null, container)
  container.remove()
  localStorage.removeItem('tollgate.playground.model')
})

const until = async (check: () => boolean, what: string) => {
  for (let i = 0; i < 300 && !check(); i++) await Bun.sleep(10)
  if (!check()) throw new Error(`timed out waiting for ${what}; page: ${container.textContent}`)
}

async function openPlayground() {
  const { I18nProvider } = await import('../../src/ui/i18n')
  const { SessionProvider, useSession } = await import('../../src/ui/state/session')
  const { ToastProvider } = await import('../../src/ui/components/toast')
  const { PlaygroundPage } = await import('../../src/ui/pages/playground')
  localStorage.setItem('tollgate.locale', 'en')
  container = document.createElement('div')
  document.body.append(container)
  const Gate = () => (useSession().user ? h(PlaygroundPage, null) : null)
  render(h(I18nProvider, null, h(SessionProvider, null, h(ToastProvider, null, h(Gate, null)))), container)
  await until(() => Boolean(container.querySelector(`select option[value="${userModels[0]}"]`)), 'the models')
}

const picker = () => byLabel(container, 'Model') as HTMLSelectElement

test('an embedding model first in the alphabet, a chat model without a price next: the priced chat model is chosen', async () => {
  userModels = ['babbage-002', 'deepseek-chat', 'gpt-4o', 'text-embedding-3-small']
  pricing = { self_use_mode: false, items: [priced('babbage-002'), unpriced('deepseek-chat'), priced('gpt-4o'), priced('text-embedding-3-small')] }
  await openPlayground()
  await until(() => picker().value === 'gpt-4o', 'gpt-4o chosen')
  expect([...picker().options].map((option) => option.textContent)).toContain('deepseek-chat (no price)')
  expect(container.querySelector('.unpriced-warning')).toBeNull()
})

test('the model picked is remembered for the next visit', async () => {
  userModels = ['claude-haiku', 'gpt-4o']
  pricing = { self_use_mode: false, items: userModels.map(priced) }
  await openPlayground()
  await until(() => picker().value === 'claude-haiku', 'the first chat model')
  picker().value = 'gpt-4o'
  picker().dispatchEvent(new (globalThis as any).window.Event('change', { bubbles: true }))
  await until(() => picker().value === 'gpt-4o', 'the pick')
  expect(localStorage.getItem('tollgate.playground.model')).toBe('gpt-4o')
  render(null, container)
  await openPlayground()
  await until(() => picker().value === 'gpt-4o', 'the remembered model')
})

test('no model has a price: a warning with the way to the Pricing page', async () => {
  userModels = ['gpt-4o', 'gpt-4o-mini']
  pricing = { self_use_mode: false, items: userModels.map(unpriced) }
  await openPlayground()
  await until(() => Boolean(container.querySelector('.unpriced-warning')), 'the warning')
  expect(container.querySelector('.unpriced-warning a[href="/pricing"]')?.textContent).toBe('Pricing page')
})
