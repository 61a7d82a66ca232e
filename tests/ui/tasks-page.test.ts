/**
 * The task pages: a user's Midjourney page lists `/api/mj/self` with the image link and a refunded task marked so;
 * an admin's Tasks page lists everyone's (`/api/task/`) with the user and channel columns, in Chinese too.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { h, render } from 'preact'
import { useDom } from './dom'

useDom()

let role = 1
const calls: string[] = []
const realFetch = globalThis.fetch
const mjRow = (id: number, patch: Record<string, unknown> = {}) => ({
  id, code: 1, user_id: 2, action: 'IMAGINE', mj_id: `17${id}`, prompt: `fox ${id}`, image_url: '', submit_time: 1_700_000_000_000, status: 'SUCCESS', progress: '100%',
  fail_reason: '', channel_id: 0, quota: 50_000, refunded: false, ...patch,
})
const taskRow = { id: 9, user_id: 2, channel_id: 4, task_id: 'suno-1', platform: 'suno', action: 'MUSIC', status: 'FAILURE', progress: '100%', fail_reason: 'generation failed', quota: 50_000, refunded: true, submit_time: 1_700_000_000, properties: { input: 'a song' } }

beforeAll(() => {
  globalThis.fetch = (async (input: string) => {
    const url = String(input)
    calls.push(url)
    const answer = (data: unknown) => new Response(JSON.stringify({ success: true, message: '', data }))
    if (url === '/api/status') return answer({ version: '1', system_name: 'T', setup: true, register_enabled: false, quota_per_unit: 500000, start_time: 0 })
    if (url === '/api/user/session') return answer({ id: 2, username: 'u', role, status: 1, quota: 0, used_quota: 0, request_count: 0, group: 'default' })
    if (url.startsWith('/api/mj/self?')) return answer({ items: [mjRow(1, { image_url: 'https://cdn.example/1.png' }), mjRow(2, { status: 'FAILURE', refunded: true, fail_reason: 'banned' })], total: 2, page: 1, page_size: 20 })
    if (url.startsWith('/api/task/?')) return answer({ items: [taskRow], total: 1, page: 1, page_size: 20 })
    return new Response(JSON.stringify({ success: false, message: `no route ${url}` }), { status: 404 })
  }) as typeof fetch
})
afterAll(() => {
  globalThis.fetch = realFetch
})

const until = async (check: () => boolean) => {
  for (let i = 0; i < 200 && !check(); i++) await Bun.sleep(10)
  if (!check()) throw new Error(`timed out; page: ${document.body.textContent}`)
}

async function mount(page: 'mj' | 'tasks', locale = 'en') {
  const { I18nProvider } = await import('../../src/ui/i18n')
  const { SessionProvider, useSession } = await import('../../src/ui/state/session')
  const { MidjourneyPage, TasksPage } = await import('../../src/ui/pages/tasks')
  localStorage.setItem('tollgate.locale', locale)
  const container = document.createElement('div')
  document.body.replaceChildren(container)
  const Gate = () => (useSession().user ? h(page === 'mj' ? MidjourneyPage : TasksPage, null) : null)
  render(h(I18nProvider, null, h(SessionProvider, null, h(Gate, null))), container)
}

test("a user's Midjourney page: their own tasks, the image's link, a refunded one marked", async () => {
  role = 1
  await mount('mj')
  await until(() => document.body.textContent!.includes('fox 2'))
  expect(calls.some((url) => url.startsWith('/api/mj/self?'))).toBe(true)
  const link = document.querySelector('a[href="https://cdn.example/1.png"]')!
  expect(link.textContent).toBe('Open image')
  expect(document.body.textContent).toContain('Refunded')
  expect(document.body.textContent).not.toContain('Channel ID')
})

test("an admin's Tasks page lists everyone's, with user and channel, in Chinese", async () => {
  role = 10
  await mount('tasks', 'zh-CN')
  await until(() => document.body.textContent!.includes('suno-1'))
  expect(calls.some((url) => url.startsWith('/api/task/?'))).toBe(true)
  for (const word of ['渠道 ID', '用户 ID', '已退还', 'generation failed', 'a song']) expect(document.body.textContent).toContain(word)
})
