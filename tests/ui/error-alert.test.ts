import { expect, test } from 'bun:test'
import { ApiError } from '../../src/ui/api/client'
import { errorText } from '../../src/ui/components/alert'
import { translate, type Locale, type MessageKey, type Params } from '../../src/ui/i18n/catalog'

const t = (locale: Locale) => (key: MessageKey, params?: Params) => translate(locale, key, params)

test('refusals with a stable code are worded by the console, the wait in whole minutes or seconds', () => {
  const locked = new ApiError(429, 'too many failed logins: try again in 14 minutes', { code: 'login_rate_limited', retry_after: 812 })
  expect(errorText(locked, t('en'))).toBe('Too many failed logins. Try again in 14 min.')
  expect(errorText(locked, t('zh-CN'))).toBe('登录失败次数过多，请在 14 分钟后重试。')
  const soon = new ApiError(429, 'too many failed logins: try again in 2 seconds', { code: 'login_rate_limited', retry_after: 2 })
  expect(errorText(soon, t('en'))).toBe('Too many failed logins. Try again in 2 s.')
  expect(errorText(new ApiError(503, 'busy', { code: 'busy', retry_after: 1 }), t('en'))).toBe('The server is busy checking passwords. Try again in 1 s.')
  expect(errorText(new ApiError(429, 'x', { code: 'signup_rate_limited', retry_after: 3600 }), t('zh-CN'))).toBe('你的地址注册次数过多，请在 60 分钟后重试。')
  expect(errorText(new ApiError(409, 'x', { code: 'username_confusable' }), t('en'))).toBe('This username looks like one that is taken. Choose another.')
  // no code the console knows: the server's own words in English, the catalog's by status elsewhere
  expect(errorText(new ApiError(409, 'the username "bob" is taken'), t('en'), 'en')).toBe('the username "bob" is taken')
  expect(errorText(new ApiError(409, 'the username "bob" is taken'), t('zh-CN'), 'zh-CN')).toBe('与已有的内容冲突。')
  expect(errorText(new ApiError(0, 'network'), t('en'))).toBe('The server could not be reached. Check your connection and try again.')
})
