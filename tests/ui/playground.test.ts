import { afterAll, beforeAll, expect, test } from 'bun:test'
import { h, render } from 'preact'
import { byLabel, byRole, settle, typeInto, useDom } from './dom'

useDom()

/** What the stubbed server answers; each test scripts `chat`. */
const sent: { path: string; body?: any }[] = []
let chat: () => Response = () => new Response('{}')
const envelope = (data: unknown) => Response.json({ success: true, message: '', data })
const user = { id: 7, username: 'ann', display_name: 'Ann', role: 1, status: 1, email: '', group: 'default', quota: 5_000_000, used_quota: 0, request_count: 0, aff_code: '', aff_count: 0, aff_quota: 0, aff_history_quota: 0, inviter_id: 0, created_time: 1_700_000_000 }
const realFetch = globalThis.fetch

beforeAll(() => {
  globalThis.fetch = (async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(String(input), 'http://127.0.0.1:3000')
    sent.push({ path: url.pathname + url.search, body: init?.body ? JSON.parse(String(init.body)) : undefined })
    if (url.pathname === '/api/status') return envelope({ version: '1', system_name: 'Tollgate', setup: true, register_enabled: false, quota_per_unit: 500_000, start_time: 0 })
    if (url.pathname === '/api/user/session') return envelope(user)
    if (url.pathname === '/api/user/models') return envelope(['model-a', 'model-b'])
    if (url.pathname === '/api/log/self') return envelope({ items: [{ quota: 1234, prompt_tokens: 9, completion_tokens: 4 }], total: 1, page: 1, page_size: 1 })
    if (url.pathname === '/pg/chat/completions') {
      const response = chat()
      init?.signal?.addEventListener('abort', () => controller?.error(new DOMException('aborted', 'AbortError')))
      return response
    }
    return new Response('not found', { status: 404 })
  }) as typeof fetch
})
afterAll(() => {
  globalThis.fetch = realFetch
})

/** A stream the test feeds by hand. */
let controller: ReadableStreamDefaultController<Uint8Array> | undefined
function openStream(): Response {
  const body = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) })
  return new Response(body, { headers: { 'content-type': 'text/event-stream', 'x-request-id': 'req_1' } })
}
const encoder = new TextEncoder()
const feed = (text: string) => controller!.enqueue(encoder.encode(text))
const delta = (content: string) => `data: {"choices":[{"index":0,"delta":{"content":${JSON.stringify(content)}}}]}\n\n`

async function until(check: () => boolean, ms = 3000) {
  const end = Date.now() + ms
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out; page: ' + document.body.textContent)
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

/** The playground inside the providers the app gives it (the whole app would pull in the dashboard's charts). */
async function mount() {
  const { I18nProvider } = await import('../../src/ui/i18n')
  const { SessionProvider, useSession } = await import('../../src/ui/state/session')
  const { ToastProvider } = await import('../../src/ui/components/toast')
  const { ConfirmProvider } = await import('../../src/ui/components/dialog')
  const { PlaygroundPage } = await import('../../src/ui/pages/playground')
  const Gate = () => (useSession().user ? h(PlaygroundPage, null) : null)
  localStorage.setItem('tollgate.locale', 'en')
  document.body.innerHTML = '<div id="app"></div>'
  render(h(I18nProvider, null, h(SessionProvider, null, h(ToastProvider, null, h(ConfirmProvider, null, h(Gate, null))))), document.getElementById('app')!)
  await until(() => Boolean(document.querySelector('select option[value="model-a"]')))
}

const log = () => document.querySelector('[role="log"]')!
const pressEnter = (target: Element, shiftKey = false) =>
  target.dispatchEvent(new (globalThis as any).window.KeyboardEvent('keydown', { key: 'Enter', shiftKey, bubbles: true, cancelable: true }))

test('Enter sends the conversation, the answer streams into the log, then usage and the exact charge show', async () => {
  await mount()
  expect(log().getAttribute('aria-live')).toBe('polite')
  chat = openStream
  const message = byLabel(document, 'Message') as HTMLTextAreaElement
  typeInto(message, 'Hello')
  await settle()
  pressEnter(message, true) // Shift+Enter: a new line, nothing sent
  await settle()
  expect(sent.some((r) => r.path === '/pg/chat/completions')).toBe(false)
  pressEnter(message)
  await until(() => sent.some((r) => r.path === '/pg/chat/completions'))
  const request = sent.find((r) => r.path === '/pg/chat/completions')!.body
  expect(request).toEqual({ model: 'model-a', messages: [{ role: 'user', content: 'Hello' }], stream: true, stream_options: { include_usage: true } })
  expect(message.value).toBe('')

  feed(delta('Hi'))
  await until(() => log().textContent!.includes('Hi'))
  feed(delta(' there') + 'data: {"choices":[],"usage":{"prompt_tokens":9,"completion_tokens":4}}\n\n')
  await until(() => log().textContent!.includes('Hi there'))
  expect(byRole(document, 'button', 'Stop')).toBeTruthy()
  feed('data: [DONE]\n\n')
  controller!.close()
  await until(() => log().textContent!.includes('9 prompt + 4 completion tokens'))
  await until(() => log().textContent!.includes('Cost: $0.002468'))
  expect(sent.some((r) => r.path.startsWith('/api/log/self?') && r.path.includes('request_id=req_1'))).toBe(true)
  expect(document.querySelector('.pg-composer-actions')!.textContent).not.toContain('Stop')
})

test('Stop ends a running answer and keeps what came; Clear empties the conversation', async () => {
  chat = openStream
  const message = byLabel(document, 'Message')
  typeInto(message, 'Tell me more')
  await settle()
  byRole(document, 'button', 'Send').click()
  await until(() => sent.filter((r) => r.path === '/pg/chat/completions').length === 2)
  const history = sent.filter((r) => r.path === '/pg/chat/completions')[1]!.body.messages
  expect(history).toEqual([
    { role: 'user', content: 'Hello' },
    { role: 'assistant', content: 'Hi there' },
    { role: 'user', content: 'Tell me more' },
  ])
  feed(delta('Partial'))
  await until(() => log().textContent!.includes('Partial'))
  byRole(document, 'button', 'Stop').click()
  await until(() => log().textContent!.includes('Stopped'))
  byRole(document, 'button', 'Clear').click()
  await settle()
  expect(log().textContent).toContain('Pick a model and send a message to start.')
})

test('a refusal shows the server message as an alert and gives the message back to the field', async () => {
  chat = () => Response.json({ error: { message: 'user quota is not enough', type: 'insufficient_user_quota' } }, { status: 403 })
  const message = byLabel(document, 'Message') as HTMLTextAreaElement
  typeInto(message, 'Expensive question')
  await settle()
  pressEnter(message)
  await until(() => Boolean(document.querySelector('[role="alert"]')))
  expect(byRole(document, 'alert').textContent).toBe('user quota is not enough')
  expect(message.value).toBe('Expensive question')
  expect(log().textContent).not.toContain('Expensive question')
})

test('settings are checked before sending', async () => {
  typeInto(byLabel(document, 'Temperature'), '3')
  typeInto(byLabel(document, 'Max tokens'), '0')
  await settle()
  const before = sent.length
  byRole(document, 'button', 'Send').click()
  await settle()
  expect(sent.length).toBe(before)
  expect(document.body.textContent).toContain('A number from 0 to 2')
  expect(document.body.textContent).toContain('A whole number of at least 1')
})
