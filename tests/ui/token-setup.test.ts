/**
 * The token dialog's client setups name a model a pasted snippet can use: one that can chat and has a price,
 * the one picked last while still valid, and a warning instead of a snippet when no model has a price.
 */
import { afterAll, afterEach, beforeAll, expect, test } from 'bun:test'
import { h, render } from 'preact'
import { byLabel, useDom } from './dom'

useDom()

type Item = { model: string; priced: boolean; mode: string }
let role = 100
let pricingFails = false
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
    if (url === '/api/user/session') return answer({ id: 1, username: 'ann', display_name: 'Ann', role, status: 1, email: '', group: 'default', quota: 0, used_quota: 0, request_count: 0, aff_code: '', aff_count: 0, aff_quota: 0, aff_history_quota: 0, inviter_id: 0, created_time: 0 })
    if (url === '/api/pricing' && !pricingFails) return answer({ group: 'default', group_ratio: 1, quota_per_unit: 500000, unpriced_models: [], ...pricing })
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
  localStorage.removeItem('tollgate.snippet.model')
})

const until = async (check: () => boolean, what: string) => {
  for (let i = 0; i < 300 && !check(); i++) await Bun.sleep(10)
  if (!check()) throw new Error(`timed out waiting for ${what}; page: ${container.textContent}`)
}

const anyModel = { model_limits_enabled: false, model_limits: '' }

/** The "Connect a client" dialog of an existing token, as the tokens page opens it. */
async function openSetup(token: { model_limits_enabled: boolean; model_limits: string } = anyModel) {
  const { I18nProvider } = await import('../../src/ui/i18n')
  const { SessionProvider, useSession } = await import('../../src/ui/state/session')
  const { SetupModal } = await import('../../src/ui/pages/tokens/key-modal')
  localStorage.setItem('tollgate.locale', 'en')
  container = document.createElement('div')
  document.body.append(container)
  const full = { id: 3, name: 'laptop', key: 'sk-abc', status: 1, ...token } as any
  const Gate = () => (useSession().user ? h(SetupModal, { token: full, models: userModels, onClose() {} }) : null)
  render(h(I18nProvider, null, h(SessionProvider, null, h(Gate, null))), container)
  await until(() => Boolean(container.querySelector('[role="tablist"], .unpriced-warning')), 'the dialog')
}

/** The curl tab's command, once prices have arrived and the choice settled on `model`. */
async function curlNaming(model: string): Promise<string> {
  const tab = [...container.querySelectorAll('[role="tab"]')].find((el) => el.textContent === 'curl') as HTMLElement
  tab.click()
  await until(() => container.querySelector('[role="tabpanel"] code')?.textContent?.includes(`"model":"${model}"`) ?? false, `curl naming ${model}`)
  return container.querySelector('[role="tabpanel"] code')!.textContent!
}

test('an embedding model first in the alphabet: the snippets name the chat model', async () => {
  userModels = ['babbage-002', 'gpt-4o-mini', 'text-embedding-3-small']
  pricing = { self_use_mode: false, items: userModels.map(priced) }
  await openSetup()
  expect(await curlNaming('gpt-4o-mini')).toContain('/v1/chat/completions')
  expect(container.textContent).toContain('the model gpt-4o-mini.')
  expect(container.querySelector('.unpriced-warning')).toBeNull()
})

test('a chat model without a price is passed over for one that has a price', async () => {
  userModels = ['deepseek-chat', 'gpt-4o', 'text-embedding-3-small']
  pricing = { self_use_mode: false, items: [unpriced('deepseek-chat'), priced('gpt-4o'), priced('text-embedding-3-small')] }
  await openSetup()
  await curlNaming('gpt-4o')
  // the picker marks the one without a price
  const picker = byLabel(container, 'Model in the snippets') as HTMLSelectElement
  expect([...picker.options].map((option) => option.textContent)).toEqual(['deepseek-chat (no price)', 'gpt-4o', 'text-embedding-3-small'])
})

test("the token's own model limits are chosen from", async () => {
  userModels = ['gpt-4o', 'gpt-4o-mini']
  pricing = { self_use_mode: false, items: userModels.map(priced) }
  await openSetup({ model_limits_enabled: true, model_limits: 'text-embedding-3-small,gpt-4o-mini' })
  await curlNaming('gpt-4o-mini')
})

test('the model picked is used and remembered for the next dialog', async () => {
  userModels = ['claude-haiku', 'gpt-4o', 'gpt-4o-mini']
  pricing = { self_use_mode: false, items: userModels.map(priced) }
  await openSetup()
  await curlNaming('claude-haiku')
  const picker = byLabel(container, 'Model in the snippets') as HTMLSelectElement
  picker.value = 'gpt-4o'
  picker.dispatchEvent(new (globalThis as any).window.Event('change', { bubbles: true }))
  await curlNaming('gpt-4o')
  expect(localStorage.getItem('tollgate.snippet.model')).toBe('gpt-4o')
  render(null, container)
  await openSetup()
  await curlNaming('gpt-4o')
  expect((byLabel(container, 'Model in the snippets') as HTMLSelectElement).value).toBe('gpt-4o')
})

test('no model has a price: a warning with the way to the Pricing page instead of snippets that fail', async () => {
  userModels = ['gpt-4o', 'gpt-4o-mini']
  pricing = { self_use_mode: false, items: userModels.map(unpriced) }
  await openSetup()
  await until(() => Boolean(container.querySelector('.unpriced-warning')), 'the warning')
  const warning = container.querySelector('.unpriced-warning')!
  expect(warning.textContent).toContain('None of these models has a price yet')
  const links = [...warning.querySelectorAll('a')].map((a) => [a.textContent, a.getAttribute('href')])
  expect(links).toEqual([
    ['Pricing page', '/pricing'],
    ['Settings', '/settings#settings-billing'],
  ])
  expect(container.querySelector('[role="tablist"]')).toBeNull()
  expect(container.textContent).not.toContain('chat/completions')
})

test('no model has a price, seen by a user: told to ask an administrator, no link to pages they cannot open', async () => {
  role = 1
  try {
    userModels = ['gpt-4o']
    pricing = { self_use_mode: false, items: userModels.map(unpriced) }
    await openSetup()
    await until(() => Boolean(container.querySelector('.unpriced-warning')), 'the warning')
    expect(container.querySelector('.unpriced-warning')!.textContent).toContain('Ask an administrator to set their prices.')
    expect(container.querySelectorAll('.unpriced-warning a').length).toBe(0)
  } finally {
    role = 100
  }
})

test('self-use mode: models without a price are free, so the snippets are shown', async () => {
  userModels = ['gpt-4o', 'gpt-4o-mini']
  pricing = { self_use_mode: true, items: userModels.map((model) => ({ model, priced: false, mode: 'free' })) }
  await openSetup()
  await curlNaming('gpt-4o')
  expect(container.querySelector('.unpriced-warning')).toBeNull()
})

test('prices cannot be read: the choice goes by name, and no warning', async () => {
  pricingFails = true
  try {
    userModels = ['text-embedding-3-small', 'tts-1', 'whisper-1', 'qwen-max']
    await openSetup()
    await curlNaming('qwen-max')
    expect(container.querySelector('.unpriced-warning')).toBeNull()
  } finally {
    pricingFails = false
  }
})
