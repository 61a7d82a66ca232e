import { afterAll, beforeAll, expect, test } from 'bun:test'
import { ApiError, errorFacts } from '../../src/ui/api/client'
import { errorText } from '../../src/ui/components/alert'
import { translate, type Locale, type MessageKey, type Params } from '../../src/ui/i18n/catalog'
import { WORDED_CODES } from '../../src/ui/lib/error-words'
import { as, login } from '../helpers/accounts'
import { call, startTestApp, type TestApp } from '../helpers/test-app'

const t = (locale: Locale) => (key: MessageKey, params?: Params) => translate(locale, key, params)
/** three English words in a row: a sentence, not a URL, a host or "HTTP 401" */
const ENGLISH_SENTENCE = /[A-Za-z]{2,} [A-Za-z]{2,} [A-Za-z]{2,}/
const CJK = /[\u4e00-\u9fff]/

function zh(status: number, body: { message: string; data: unknown }): string {
  return errorText(new ApiError(status, body.message, errorFacts(body.data)), t('zh-CN'), 'zh-CN')
}

test('every code the console words, and any it does not, reads in Chinese without the server\'s English', () => {
  const english = 'the server explains this in English words'
  for (const code of [...WORDED_CODES, 'a_code_nobody_knows']) {
    for (const status of [400, 401, 403, 404, 409, 429, 500, 502]) {
      const text = zh(status, { message: english, data: { code, retry_after: 300, param: 'name', status: 401, method: 'POST', url: 'http://10.0.0.1:8000/v1/chat/completions', host: '10.0.0.1:8000' } })
      expect(text, `${code} ${status}`).not.toContain(english)
      expect(text, `${code} ${status}`).toMatch(CJK)
      expect(text, `${code} ${status}`).not.toMatch(ENGLISH_SENTENCE)
    }
  }
  expect(zh(429, { message: 'x', data: { code: 'rate_limited', retry_after: 240 } })).toBe('请求过于频繁，请在 4 分钟后重试。')
})

let app: TestApp
beforeAll(async () => (app = await startTestApp()))
afterAll(() => app.stop())

test('what the server really answers a newcomer\'s mistakes reaches the Chinese console in Chinese', async () => {
  const root = as(await login(app))
  const closed = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response() })
  const deadUrl = `http://127.0.0.1:${closed.port}`
  closed.stop(true)
  await app.deps.options.set('SelfUseModeEnabled', false)
  const refusals = [
    await call(app, 'POST', '/api/user/login', { username: 'root', password: 'wrong-password' }),
    await call(app, 'GET', '/api/token/'),
    await call(app, 'POST', '/api/setup', { username: 'x', password: 'a-good-password', confirmPassword: 'a-good-password' }),
    await call(app, 'POST', '/api/token/', { name: '' }, root),
    await call(app, 'GET', '/api/token/999999', undefined, root),
    await call(app, 'POST', '/api/channel/fetch_models', { type: 1, base_url: deadUrl }, root),
    await call(app, 'POST', '/api/channel/fetch_models', { type: 1, key: 'sk-x', base_url: deadUrl }, root),
    await call(app, 'POST', '/api/channel/fetch_models', { type: 1, key: 'sk-x', base_url: 'http://169.254.169.254' }, root),
    await call(app, 'POST', '/api/channel/', { type: 1, name: 'c', key: 'sk-x', base_url: deadUrl, models: 'm-1' }, root),
    await call(app, 'PUT', '/api/option/', { key: 'NoSuchOption', value: 1 }, root),
    await call(app, 'POST', '/api/user/topup', { key: 'not-a-code' }, root),
    await call(app, 'GET', '/api/nowhere', undefined, root),
  ].filter((res) => !res.body?.success)
  expect(refusals.length).toBeGreaterThanOrEqual(10)
  for (const res of refusals) {
    const text = zh(res.status, res.body)
    expect(text, res.body.message).not.toContain(res.body.message)
    expect(text, res.body.message).toMatch(CJK)
    expect(text, res.body.message).not.toMatch(ENGLISH_SENTENCE)
  }
  // a channel test against a dead upstream: new-api's envelope (HTTP 200, success false) with the failure's code
  const channel = (await call(app, 'GET', '/api/channel/', undefined, root)).body.data.items[0]
  const test = await call(app, 'GET', `/api/channel/test/${channel.id}`, undefined, root)
  expect(test.body.success).toBe(false)
  expect(zh(200, test.body)).toBe(`无法连接到 127.0.0.1:${new URL(deadUrl).port}。请检查接口地址，并确认该服务正在运行、网关可以访问到它。`)

  // the pages added since: upstream models, notifications, plans, tasks
  const later = [
    await call(app, 'POST', '/api/channel/upstream_updates/apply', { id: channel.id, add_models: [], remove_models: [] }, root),
    await call(app, 'PUT', '/api/user/setting', { notify_type: 'webhook', webhook_url: '' }, root),
    await call(app, 'PUT', '/api/user/setting', { notify_type: 'email', quota_warning_threshold: 1.5 }, root),
    await call(app, 'POST', '/api/subscription/admin/plans', { title: 'x', price_amount: 1, currency: 'XYZ', duration_unit: 'month', duration_value: 1, total_amount: 0 }, root),
    await call(app, 'GET', '/api/mj/self?p=abc', undefined, root),
  ].filter((res) => !res.body?.success)
  expect(later.length).toBeGreaterThanOrEqual(4)
  for (const res of later) {
    const text = zh(res.status, res.body)
    expect(text, res.body.message).not.toContain(res.body.message)
    expect(text, res.body.message).toMatch(CJK)
    expect(text, res.body.message).not.toMatch(ENGLISH_SENTENCE)
  }
  // price sync: a source that cannot be read comes back with a code the drawer words (not Bun's English)
  const sync = await call(app, 'POST', '/api/ratio_sync/fetch', { upstreams: [{ name: 'source', base_url: deadUrl }] }, root)
  expect(sync.body.data.results[0]).toMatchObject({ ok: false, code: 'source_unreachable' })
  expect(translate('zh-CN', 'sync.source.unreachable')).toMatch(CJK)
})
