/**
 * The channel drawer's "Sign in with ChatGPT" (a Codex channel, type 57): start opens auth.openai.com's address in a
 * new tab, the pasted localhost address completes the sign-in on the channel; for a channel being created the sealed
 * key goes into the key field; a refusal is worded from its stable code, in the reader's language.
 */
import { afterAll, beforeAll, beforeEach, expect, test } from 'bun:test'
import { h, render } from 'preact'
import { byLabel, byRole, settle, typeInto, useDom } from './dom'

const dom = useDom('http://127.0.0.1:3000/channels')

const sent: { method: string; path: string; body: any }[] = []
const opened: string[] = []
let completeAnswer: { status: number; data: unknown } = { status: 200, data: {} }
const realFetch = globalThis.fetch
const envelope = (data: unknown, status = 200) => new Response(JSON.stringify({ success: status < 400, message: status < 400 ? 'saved' : 'refused', data }), { status, headers: { 'content-type': 'application/json' } })

beforeAll(() => {
  ;(dom.window as any).open = (url: string) => void opened.push(url)
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://127.0.0.1:3000')
    const method = init?.method ?? 'GET'
    sent.push({ method, path: url.pathname, body: init?.body ? JSON.parse(String(init.body)) : undefined })
    if (url.pathname.endsWith('/codex/oauth/start')) return envelope({ authorize_url: 'https://auth.openai.com/oauth/authorize?client_id=app&state=s1' })
    if (url.pathname.endsWith('/codex/oauth/complete')) return envelope(completeAnswer.data, completeAnswer.status)
    if (url.pathname.endsWith('/codex/usage')) return envelope({ plan_type: 'pro', rate_limit: { primary_window: { used_percent: 12 }, secondary_window: { used_percent: 40.4 } } })
    return envelope(null, 404)
  }) as typeof fetch
})
afterAll(() => {
  globalThis.fetch = realFetch
})
beforeEach(() => {
  sent.length = 0
  opened.length = 0
  document.body.innerHTML = ''
})

const settleAll = async () => {
  for (let i = 0; i < 6; i++) await settle()
}

async function renderSignIn(locale: string, channelId: number | undefined, onKey: (key: string) => void = () => {}): Promise<HTMLElement> {
  const { I18nProvider } = await import('../../src/ui/i18n')
  const { CodexSignIn } = await import('../../src/ui/pages/channels/codex-sign-in')
  localStorage.setItem('tollgate.locale', locale)
  const container = document.createElement('div')
  document.body.append(container)
  render(h(I18nProvider, null, h(CodexSignIn, { channelId, onKey })), container)
  await settleAll()
  return container
}

test('an existing channel: start opens the sign-in page, the pasted address completes it on the channel, the usage reads back', async () => {
  completeAnswer = { status: 200, data: { channel_id: 7, account_id: 'acct', email: 'coder@example.com', expires_at: '2026-12-09T00:00:00Z' } }
  const box = await renderSignIn('en', 7)
  byRole(box, 'button', 'Sign in with ChatGPT').click()
  await settleAll()
  expect(sent.map((s) => `${s.method} ${s.path}`)).toEqual(['POST /api/channel/7/codex/oauth/start'])
  expect(opened).toEqual(['https://auth.openai.com/oauth/authorize?client_id=app&state=s1'])
  expect(box.textContent).toContain('Copy that whole address and paste it here')
  typeInto(byLabel(box, 'Address the browser landed on'), ' http://localhost:1455/auth/callback?code=c1&state=s1 ')
  await settleAll()
  byRole(box, 'button', 'Finish sign-in').click()
  await settleAll()
  expect(sent.at(-1)).toEqual({ method: 'POST', path: '/api/channel/7/codex/oauth/complete', body: { input: 'http://localhost:1455/auth/callback?code=c1&state=s1' } })
  expect(box.querySelector('[role="status"]')?.textContent).toBe('Signed in as coder@example.com')
  byRole(box, 'button', 'Show subscription usage').click()
  await settleAll()
  expect(box.querySelector('[role="status"]')?.textContent).toBe('pro: 12% of the 5-hour window, 40% of the week used')
})

test('a channel being created: the sealed key goes to the key field; no refresh or usage before it exists', async () => {
  completeAnswer = { status: 200, data: { key: 'codex-sign-in:v1:abc:def', account_id: 'acct', email: 'coder@example.com', expires_at: '2026-12-09T00:00:00Z' } }
  const keys: string[] = []
  const box = await renderSignIn('en', undefined, (key) => keys.push(key))
  expect(() => byRole(box, 'button', 'Refresh tokens now')).toThrow()
  byRole(box, 'button', 'Sign in with ChatGPT').click()
  await settleAll()
  typeInto(byLabel(box, 'Address the browser landed on'), 'c1#s1')
  await settleAll()
  byRole(box, 'button', 'Finish sign-in').click()
  await settleAll()
  expect(sent.map((s) => s.path)).toEqual(['/api/channel/codex/oauth/start', '/api/channel/codex/oauth/complete'])
  expect(keys).toEqual(['codex-sign-in:v1:abc:def'])
  expect(box.textContent).toContain('Save to create the channel')
})

test('a refusal is worded from its code, in Chinese too', async () => {
  completeAnswer = { status: 400, data: { code: 'codex_oauth_state_mismatch', param: 'input' } }
  const box = await renderSignIn('zh-CN', 3)
  byRole(box, 'button', '使用 ChatGPT 登录').click()
  await settleAll()
  typeInto(byLabel(box, '浏览器跳转到的地址'), 'c#other')
  await settleAll()
  byRole(box, 'button', '完成登录').click()
  await settleAll()
  expect(byRole(box, 'alert').textContent).toContain('该地址属于另一次登录')
})
