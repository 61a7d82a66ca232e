import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { h, render } from 'preact'
import { TokenStatus } from '../../src/services/tokens/token-status'
import { checkTokenForm, enableBlocker, formFromToken, isIpEntry, TOKEN_STATUS, tokenState, type EditedToken, type TokenFormValues } from '../../src/ui/lib/token-form'
import { byLabel, byRole, settle, typeInto, useDom } from './dom'

const PER_UNIT = 500_000
const NOW = 1_900_000_000
const blank = (values: Partial<TokenFormValues> = {}): TokenFormValues => ({ ...formFromToken(undefined, PER_UNIT), name: 'ci', ...values })
const stored: EditedToken = {
  id: 7, name: 'ci', status: 1, expired_time: NOW - 60, remain_quota: 123_457, unlimited_quota: false,
  model_limits_enabled: true, model_limits: 'a,b', allow_ips: '10.0.0.0/8', group: '',
}

describe('checkTokenForm', () => {
  test('dollars become quota units through QuotaPerUnit', () => {
    const check = (dollars: string) => checkTokenForm(blank({ dollars }), { now: NOW, quotaPerUnit: PER_UNIT })
    expect(check('10')).toMatchObject({ ok: true, body: { remain_quota: 5_000_000, unlimited_quota: false } })
    expect(check(' 2.5 ')).toMatchObject({ ok: true, body: { remain_quota: 1_250_000 } })
    expect(check('0.000001')).toMatchObject({ ok: true, body: { remain_quota: 1 } })
    expect(checkTokenForm(blank({ dollars: '1' }), { now: NOW, quotaPerUnit: 1000 })).toMatchObject({ ok: true, body: { remain_quota: 1000 } })
    expect(check('')).toEqual({ ok: false, errors: { dollars: 'required' } })
    expect(check('ten')).toEqual({ ok: false, errors: { dollars: 'amount' } })
    expect(check('-1')).toEqual({ ok: false, errors: { dollars: 'amount' } })
    expect(check('0')).toEqual({ ok: false, errors: { dollars: 'amountPositive' } })
    expect(check('99999999999999')).toEqual({ ok: false, errors: { dollars: 'amountTooLarge' } })
  })

  test('unlimited quota needs no amount, and keeps one that reads', () => {
    expect(checkTokenForm(blank({ unlimited: true, dollars: '' }), { now: NOW, quotaPerUnit: PER_UNIT })).toMatchObject({ ok: true, body: { unlimited_quota: true, remain_quota: 0 } })
    expect(checkTokenForm(blank({ unlimited: true, dollars: 'x' }), { now: NOW, quotaPerUnit: PER_UNIT })).toMatchObject({ ok: true, body: { unlimited_quota: true } })
    expect(checkTokenForm(blank({ unlimited: true, dollars: '3' }), { now: NOW, quotaPerUnit: PER_UNIT })).toMatchObject({ ok: true, body: { remain_quota: 1_500_000 } })
  })

  test('expiry: empty is never (-1), the past is refused, the future is unix seconds', () => {
    const check = (expires: string) => checkTokenForm(blank({ expires }), { now: NOW, quotaPerUnit: PER_UNIT })
    expect(check('')).toMatchObject({ ok: true, body: { expired_time: -1 } })
    expect(check('2001-01-01T00:00')).toEqual({ ok: false, errors: { expires: 'past' } })
    const future = '2099-06-01T12:30'
    expect(check(future)).toMatchObject({ ok: true, body: { expired_time: Math.floor(new Date(future).getTime() / 1000) } })
  })

  test('name, model limits and the IP list are checked', () => {
    const errors = (values: Partial<TokenFormValues>) => {
      const result = checkTokenForm(blank(values), { now: NOW, quotaPerUnit: PER_UNIT })
      return result.ok ? {} : result.errors
    }
    expect(errors({ name: '  ' })).toEqual({ name: 'required' })
    expect(errors({ name: 'x'.repeat(51) })).toEqual({ name: 'nameLength' })
    expect(errors({ limitModels: true, models: ' \n,' })).toEqual({ models: 'modelsRequired' })
    expect(errors({ limitModels: true, models: 'gpt 4o' })).toEqual({ models: 'modelName' })
    expect(errors({ allowIps: '10.0.0.1\n300.1.1.1' })).toEqual({ allowIps: 'ip' })
    const ok = checkTokenForm(blank({ limitModels: true, models: 'a\nb, a\n', allowIps: '10.0.0.0/8, ::1\n' }), { now: NOW, quotaPerUnit: PER_UNIT })
    expect(ok).toMatchObject({ ok: true, body: { model_limits_enabled: true, model_limits: 'a,b', allow_ips: '10.0.0.0/8\n::1' } })
  })

  test('editing keeps the stored quota and expiry when their fields were left alone', () => {
    const values = formFromToken(stored, PER_UNIT)
    expect(values).toMatchObject({ dollars: '0.246914', limitModels: true, models: 'a\nb', allowIps: '10.0.0.0/8' })
    // an expiry already past is not "in the past" while untouched; the quota does not drift through dollars
    const result = checkTokenForm({ ...values, name: 'ci-2' }, { now: NOW, quotaPerUnit: PER_UNIT, initial: stored })
    expect(result).toMatchObject({ ok: true, body: { name: 'ci-2', remain_quota: 123_457, expired_time: NOW - 60 } })
    // a changed quota may be 0 on an edit (creating needs more)
    expect(checkTokenForm({ ...values, dollars: '0' }, { now: NOW, quotaPerUnit: PER_UNIT, initial: stored })).toMatchObject({ ok: true, body: { remain_quota: 0 } })
  })

  test('IP entries', () => {
    for (const good of ['1.2.3.4', '10.0.0.0/8', '::1', '2001:db8::/32', '::ffff:1.2.3.4']) expect({ good, ok: isIpEntry(good) }).toEqual({ good, ok: true })
    for (const bad of ['1.2.3', '1.2.3.4/33', 'host.local', '1.2.3.4/8/1', '::1/129', 'fe80::1%eth0']) expect({ bad, ok: isIpEntry(bad) }).toEqual({ bad, ok: false })
  })
})

describe('token state', () => {
  test('the status numbers are the server own', () => {
    expect(TOKEN_STATUS).toEqual(TokenStatus)
  })

  test('an enabled token past its time or out of quota shows as such before the gateway marks it', () => {
    const base = { status: 1, expired_time: -1, remain_quota: 10, unlimited_quota: false }
    expect(tokenState(base, NOW)).toBe('enabled')
    expect(tokenState({ ...base, status: 2 }, NOW)).toBe('disabled')
    expect(tokenState({ ...base, expired_time: NOW }, NOW)).toBe('expired')
    expect(tokenState({ ...base, status: 3, expired_time: NOW + 10 }, NOW)).toBe('expired')
    expect(tokenState({ ...base, remain_quota: 0 }, NOW)).toBe('exhausted')
    expect(tokenState({ ...base, remain_quota: 0, unlimited_quota: true }, NOW)).toBe('enabled')
    expect(enableBlocker({ ...base, status: 4, remain_quota: 0 }, NOW)).toBe('exhausted')
    expect(enableBlocker({ ...base, status: 3, expired_time: NOW + 10 }, NOW)).toBeUndefined()
  })
})

// ---- the page, in a DOM, against a scripted API ----

useDom()

interface Sent {
  method: string
  path: string
  body: any
}
const sent: Sent[] = []
let createAnswers: Array<{ status: number; body: unknown }> = []
const realFetch = globalThis.fetch
const envelope = (data: unknown, status = 200, message = '') => new Response(JSON.stringify({ success: status < 400, message, data }), { status, headers: { 'content-type': 'application/json' } })

beforeAll(() => {
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://127.0.0.1:3000')
    const method = init?.method ?? 'GET'
    const body = init?.body ? JSON.parse(String(init.body)) : undefined
    sent.push({ method, path: url.pathname, body })
    if (url.pathname === '/api/status') return envelope({ version: 't', system_name: 'Tollgate', setup: true, register_enabled: false, quota_per_unit: PER_UNIT, start_time: 0, server_address: '' })
    if (url.pathname === '/api/user/session') return envelope({ id: 1, username: 'alice', display_name: 'Alice', role: 1, status: 1, group: 'default', quota: 0, used_quota: 0 })
    if (url.pathname === '/api/user/models') return envelope(['gpt-4o-mini', 'claude-haiku-4-5'])
    if (url.pathname === '/api/user/self/groups') return envelope({ default: { ratio: 1, desc: '(your group)' } })
    if (url.pathname === '/api/token/' && method === 'GET') return envelope({ items: [], total: 0, page: 1, page_size: 10 })
    if (url.pathname === '/api/token/' && method === 'POST') {
      const answer = createAnswers.shift()!
      return envelope(answer.body, answer.status, answer.status >= 400 ? String(answer.body) : '')
    }
    return envelope(null, 404, `no mock for ${method} ${url.pathname}`)
  }) as typeof fetch
})
afterAll(() => {
  globalThis.fetch = realFetch
})

const settleAll = async () => {
  for (let i = 0; i < 5; i++) await settle()
}

test('the create drawer validates before sending, shows the server refusal, then the key once with the setups', async () => {
  const { I18nProvider } = await import('../../src/ui/i18n')
  const { SessionProvider } = await import('../../src/ui/state/session')
  const { ToastProvider } = await import('../../src/ui/components/toast')
  const { ConfirmProvider } = await import('../../src/ui/components/dialog')
  const { TokensPage } = await import('../../src/ui/pages/tokens')
  localStorage.setItem('tollgate.locale', 'en')
  const container = document.createElement('div')
  document.body.append(container)
  render(h(I18nProvider, null, h(SessionProvider, null, h(ToastProvider, null, h(ConfirmProvider, null, h(TokensPage, null))))), container)
  await settleAll()
  expect(container.textContent).toContain('No tokens yet: create one to connect a client')

  byRole(container, 'button', 'New token').click()
  await settleAll()
  const posts = () => sent.filter((s) => s.method === 'POST' && s.path === '/api/token/')

  // nothing filled in but the default quota: the name is missing
  byRole(container, 'button', 'Create').click()
  await settleAll()
  expect(posts()).toEqual([])
  expect(container.textContent).toContain('Fill in this field')

  typeInto(byLabel(container, 'Name'), 'ci')
  typeInto(byLabel(container, 'Quota'), 'ten')
  typeInto(byLabel(container, 'Expires'), '2001-01-01T00:00')
  await settleAll()
  byRole(container, 'button', 'Create').click()
  await settleAll()
  expect(posts()).toEqual([])
  expect(container.textContent).toContain('Enter an amount in dollars, like 10 or 2.5')
  expect(container.textContent).toContain('Pick a time in the future, or leave it empty for never')

  // 2.5 dollars: both shown, the hint says what it is in quota
  typeInto(byLabel(container, 'Quota'), '2.5')
  typeInto(byLabel(container, 'Expires'), '')
  await settleAll()
  expect(container.textContent).toContain('In US dollars (= 1,250,000 quota units).')

  // Limit models with nothing listed is refused; a suggestion button adds the model
  ;(byLabel(container, 'Limit models') as HTMLInputElement).click()
  await settleAll()
  byRole(container, 'button', 'Create').click()
  await settleAll()
  expect(container.textContent).toContain('List at least one model, or untick Limit models')
  byRole(container, 'button', 'Add claude-haiku-4-5').click()
  await settleAll()
  expect((byLabel(container, 'Models') as HTMLTextAreaElement).value).toBe('claude-haiku-4-5')

  // the server refuses once: its message is shown as an alert in the drawer
  createAnswers = [
    { status: 400, body: 'group: you may only use your own group "default"' },
    { status: 200, body: { id: 3, user_id: 1, key: 'sk-newkey123', name: 'ci', status: 1, created_time: NOW, accessed_time: 0, expired_time: -1, remain_quota: 1_250_000, unlimited_quota: false, used_quota: 0, model_limits_enabled: true, model_limits: 'claude-haiku-4-5', allow_ips: '', group: '' } },
  ]
  byRole(container, 'button', 'Create').click()
  await settleAll()
  expect(posts()).toHaveLength(1)
  expect(posts()[0]!.body).toEqual({
    name: 'ci', remain_quota: 1_250_000, unlimited_quota: false, expired_time: -1,
    model_limits_enabled: true, model_limits: 'claude-haiku-4-5', allow_ips: '', group: '',
  })
  expect(byRole(container, 'alert').textContent).toBe('group: you may only use your own group "default"')

  // Unlimited quota: the amount no longer matters
  ;(byLabel(container, 'Unlimited quota') as HTMLInputElement).click()
  await settleAll()
  byRole(container, 'button', 'Create').click()
  await settleAll()
  expect(posts()).toHaveLength(2)
  expect(posts()[1]!.body).toMatchObject({ unlimited_quota: true, remain_quota: 1_250_000 })

  // the key, once, with the setups filled in for this address, this key and the token's model
  expect(container.querySelector('#modal-title')?.textContent).toBe('Your new key')
  expect(container.textContent).toContain('it will not be shown again')
  expect(container.textContent).toContain('sk-newkey123')
  const tabs = [...container.querySelectorAll('[role="tablist"] [role="tab"]')].map((tab) => tab.textContent)
  expect(tabs).toEqual(['Claude Code', 'Codex CLI', 'opencode', 'Gemini CLI', 'OpenAI-compatible tools', 'OpenAI SDK', 'Anthropic SDK', 'Google GenAI SDK', 'curl'])
  const panel = () => container.querySelector('[role="tabpanel"]')!.textContent!
  expect(panel()).toContain('export ANTHROPIC_BASE_URL="http://127.0.0.1:3000"')
  expect(panel()).toContain('export ANTHROPIC_AUTH_TOKEN="sk-newkey123"')
  expect(panel()).toContain('export ANTHROPIC_MODEL="claude-haiku-4-5"')
  ;([...container.querySelectorAll('[role="tab"]')].find((tab) => tab.textContent === 'Codex CLI') as HTMLElement).click()
  await settleAll()
  expect(panel()).toContain('base_url = "http://127.0.0.1:3000/v1"')
  expect(container.querySelector('[role="tab"][aria-selected="true"]')?.textContent).toBe('Codex CLI')
  // arrow keys, Home and End move between the tabs
  const selected = () => container.querySelector('[role="tab"][aria-selected="true"]')!
  const press = async (key: string) => {
    selected().dispatchEvent(new (globalThis as any).window.KeyboardEvent('keydown', { key, bubbles: true }))
    await settleAll()
  }
  await press('ArrowRight')
  expect(selected().textContent).toBe('opencode')
  await press('End')
  expect(selected().textContent).toBe('curl')
  await press('ArrowRight')
  expect(selected().textContent).toBe('Claude Code')
  await press('ArrowLeft')
  expect(selected().textContent).toBe('curl')
  expect(panel()).toContain('curl "http://127.0.0.1:3000/v1/chat/completions"')
  expect(byRole(container, 'button', 'Copy: API key')).toBeTruthy()
  expect(byRole(container, 'button', 'Copy: curl, Shell')).toBeTruthy()
})
