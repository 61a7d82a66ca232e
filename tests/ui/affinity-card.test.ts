import { afterAll, beforeAll, expect, test } from 'bun:test'
import { h, render } from 'preact'
import { byRole, settle, useDom } from './dom'

// Settings › Agent sessions: how many sessions are pinned, and root's clear of them all (stubbed API).
useDom()

let pinned = 3
const calls: string[] = []
const realFetch = globalThis.fetch
beforeAll(() => {
  globalThis.fetch = (async (input: string, init?: RequestInit) => {
    const url = String(input)
    calls.push(`${init?.method ?? 'GET'} ${url}`)
    const answer = (data: unknown) => new Response(JSON.stringify({ success: true, message: '', data }), { headers: { 'content-type': 'application/json' } })
    if (url === '/api/option/channel_affinity_cache') return answer({ total: pinned, shared: true })
    if (url === '/api/option/channel_affinity_cache?all=true' && init?.method === 'DELETE') {
      const deleted = pinned
      pinned = 0
      return answer({ deleted })
    }
    return new Response('{}', { status: 404 })
  }) as typeof fetch
})
afterAll(() => {
  globalThis.fetch = realFetch
})

const until = async (check: () => boolean) => {
  for (let i = 0; i < 50 && !check(); i++) await settle()
}

test('shows the pinned sessions and forgets them all on request', async () => {
  const { I18nProvider } = await import('../../src/ui/i18n')
  const { ToastProvider } = await import('../../src/ui/components/toast')
  const { AffinityCacheCard } = await import('../../src/ui/pages/settings/affinity-cache')
  localStorage.setItem('tollgate.locale', 'en')
  const container = document.createElement('div')
  document.body.append(container)
  render(h(I18nProvider, null, h(ToastProvider, null, h(AffinityCacheCard, null))), container)
  await until(() => container.textContent!.includes('3 sessions pinned (shared by every node)'))
  expect(container.textContent).toContain('3 sessions pinned (shared by every node)')
  byRole(container, 'button', 'Forget all pinned sessions').click()
  await until(() => container.textContent!.includes('0 sessions pinned'))
  expect(calls).toContain('DELETE /api/option/channel_affinity_cache?all=true')
  expect(container.textContent).toContain('3 sessions forgotten')
  expect((byRole(container, 'button', 'Forget all pinned sessions') as HTMLButtonElement).disabled).toBe(true)
  render(null, container)
})
