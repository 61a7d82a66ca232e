/**
 * The console's side of the ways in: the profile's binding lines (never the last way in), the Settings sections of
 * the providers with their callback URL, and the providers' refusals worded from their codes in both languages.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { h, render } from 'preact'
import type { Status } from '../../src/ui/api/types'
import { bindingLines } from '../../src/ui/lib/oauth-providers'
import { errorWords } from '../../src/ui/lib/error-words'
import { translate } from '../../src/ui/i18n/catalog'
import { settle, useDom } from './dom'

useDom()

const status = { github_oauth: true, discord_oauth: false, linuxdo_oauth: true, oidc_enabled: true, oidc_display_name: 'Acme SSO', custom_oauth_providers: [{ id: 3, name: 'Corp', slug: 'corp', icon: '', client_id: 'c' }] } as Status

test('a binding line per provider that is on, and per provider still bound after it was switched off', () => {
  const lines = bindingLines(status, { has_password: true, bindings: [{ provider: 'github', external_id: '1001', created_time: 1 }, { provider: 'telegram', external_id: '77', created_time: 1 }] })
  expect(lines.map((l) => [l.id, l.route, l.name, l.externalId, l.canBind, l.canUnbind])).toEqual([
    ['github', 'github', 'GitHub', '1001', false, true],
    ['linuxdo', 'linuxdo', 'LinuxDO', undefined, true, false],
    ['oidc', 'oidc', 'Acme SSO', undefined, true, false],
    // a custom provider is bound as custom:<id> and started by its slug
    ['custom:3', 'corp', 'Corp', undefined, true, false],
    ['telegram', 'telegram', 'Telegram', '77', false, true],
  ])
})

test('without a password the only binding cannot be unbound; with two, either can', () => {
  const only = bindingLines(status, { has_password: false, bindings: [{ provider: 'github', external_id: '1', created_time: 1 }] })
  expect(only.find((l) => l.id === 'github')!.canUnbind).toBe(false)
  const two = bindingLines(status, { has_password: false, bindings: [{ provider: 'github', external_id: '1', created_time: 1 }, { provider: 'oidc', external_id: 's', created_time: 1 }] })
  expect(two.filter((l) => l.canUnbind).map((l) => l.id)).toEqual(['github', 'oidc'])
})

test('the providers’ refusals are worded from their codes, in Chinese too', () => {
  const t = (locale: 'en' | 'zh-CN') => (key: Parameters<typeof translate>[1], params?: Record<string, string | number>) => translate(locale, key, params)
  expect(errorWords(409, 'github is your only way', { code: 'last_sign_in' }, 'zh-CN', t('zh-CN'))).toBe('这是你唯一的登录方式：请先设置密码或绑定其他账号。')
  expect(errorWords(400, 'x', { code: 'oauth_state_invalid' }, 'en', t('en'))).toBe('This sign-in was not started in this browser, or it took too long. Start again.')
})

const options = [
  { key: 'ServerAddress', type: 'string', value: '', description: '' },
  { key: 'GitHubOAuthEnabled', type: 'boolean', value: false, description: '' },
  { key: 'GitHubClientId', type: 'string', value: '', description: '' },
  { key: 'GitHubClientSecret', type: 'string', value: '', description: '', secret: true, configured: true },
  { key: 'oidc.enabled', type: 'boolean', value: false, description: '' },
  { key: 'oidc.well_known', type: 'string', value: '', description: '' },
]
const realFetch = globalThis.fetch
beforeAll(() => {
  globalThis.fetch = (async (input: string) => {
    const answer = (body: unknown) => new Response(JSON.stringify({ success: true, message: '', data: body }), { headers: { 'content-type': 'application/json' } })
    if (input === '/api/status') return answer({ version: '1', system_name: 'T', setup: true, register_enabled: true, quota_per_unit: 500000, start_time: 0 })
    if (input === '/api/user/session') return answer({ id: 1, username: 'root', display_name: 'Root', role: 100, status: 1, group: 'default' })
    if (input === '/api/option/') return answer(options)
    if (input === '/api/custom-oauth-provider/') return answer([{ id: 3, name: 'Corp', slug: 'corp', enabled: true, client_id: 'c', client_secret_configured: true }])
    return new Response('{}', { status: 404 })
  }) as typeof fetch
})
afterAll(() => {
  globalThis.fetch = realFetch
})

test('Settings: a section per provider that has options, with its callback URL to copy; none for the others', async () => {
  const { I18nProvider } = await import('../../src/ui/i18n')
  const { SessionProvider } = await import('../../src/ui/state/session')
  const { ToastProvider } = await import('../../src/ui/components/toast')
  const { SettingsPage } = await import('../../src/ui/pages/settings')
  localStorage.setItem('tollgate.locale', 'en')
  const container = document.createElement('div')
  document.body.append(container)
  render(h(I18nProvider, null, h(SessionProvider, null, h(ToastProvider, null, h(SettingsPage, null)))), container)
  for (let i = 0; i < 50 && !container.textContent!.includes('Sign in with GitHub'); i++) await settle()
  const github = container.querySelector('#settings-github')!
  expect(github.querySelector('h2')!.textContent).toBe('GitHub')
  // ServerAddress is empty: the page's own origin, and a word to set the address
  expect(github.querySelector('.callback-url code')!.textContent).toBe('http://127.0.0.1:3000/oauth/github')
  expect(github.textContent).toContain('The public address (General) is not set')
  expect(github.querySelector('button[aria-label="Copy: Callback URL"]')).not.toBeNull()
  expect(container.querySelector('#settings-oidc .callback-url code')!.textContent).toBe('http://127.0.0.1:3000/oauth/oidc')
  // no options, no section and no table-of-contents entry (Discord, Telegram, WeChat here)
  expect(container.querySelector('#settings-discord')).toBeNull()
  expect(container.querySelector('a[href="#settings-discord"]')).toBeNull()
  expect(container.querySelector('a[href="#settings-github"]')).not.toBeNull()
  // custom providers: each with its callback URL by slug
  expect(container.querySelector('#settings-customOAuth')!.textContent).toContain('Corp')
  expect(container.querySelector('#settings-customOAuth .callback-url code')!.textContent).toBe('http://127.0.0.1:3000/oauth/corp')
  // the secret's field is typed hidden and shown empty
  const secret = [...github.querySelectorAll('input')].find((i) => i.type === 'password') as HTMLInputElement
  expect(secret.value).toBe('')
  render(null, container)
})
