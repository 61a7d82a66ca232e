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
})
