import { expect, test } from 'bun:test'
import { BadRequestError } from '../../src/errors'
import { joinUrl, normalizeBaseUrl } from '../../src/providers/url'

test('joinUrl never doubles the version or a shared path segment', () => {
  expect(joinUrl('https://x.test', '/v1/chat/completions')).toBe('https://x.test/v1/chat/completions')
  expect(joinUrl('https://x.test/v1', '/v1/chat/completions')).toBe('https://x.test/v1/chat/completions')
  expect(joinUrl('https://x.test/v1/', '/v1/chat/completions')).toBe('https://x.test/v1/chat/completions')
  expect(joinUrl('https://openrouter.ai/api', '/v1/chat/completions')).toBe('https://openrouter.ai/api/v1/chat/completions')
  expect(joinUrl('https://openrouter.ai/api/v1', '/v1/chat/completions')).toBe('https://openrouter.ai/api/v1/chat/completions')
  expect(joinUrl('https://api.deepseek.com/anthropic', '/anthropic/v1/messages')).toBe('https://api.deepseek.com/anthropic/v1/messages')
  expect(joinUrl('https://g.test/v1beta', '/v1beta/models/{model}:generateContent')).toBe('https://g.test/v1beta/models/{model}:generateContent')
  // a different version on the base wins over the path's
  expect(joinUrl('https://g.test/v1', '/v1beta/models')).toBe('https://g.test/v1/models')
  expect(joinUrl('https://open.bigmodel.cn/api/paas/v4', '/v1/chat/completions')).toBe('https://open.bigmodel.cn/api/paas/v4/chat/completions')
  expect(joinUrl('https://r.openai.azure.com', '/openai/models?api-version=1')).toBe('https://r.openai.azure.com/openai/models?api-version=1')
})

test('normalizeBaseUrl accepts http(s) roots and paths, drops trailing slashes', () => {
  expect(normalizeBaseUrl('')).toBe('')
  expect(normalizeBaseUrl('  ')).toBe('')
  expect(normalizeBaseUrl('https://api.example.com/')).toBe('https://api.example.com')
  expect(normalizeBaseUrl('http://127.0.0.1:11434/v1//')).toBe('http://127.0.0.1:11434/v1')
  expect(normalizeBaseUrl('HTTPS://API.Example.com/Path')).toBe('https://api.example.com/Path')
})

test('normalizeBaseUrl refuses other schemes, credentials, query and fragment, naming base_url', () => {
  for (const bad of ['ftp://x.test', 'file:///etc/passwd', 'javascript:alert(1)', 'https://user:pass@x.test', 'https://user@x.test', 'https://x.test/?a=1', 'https://x.test/#frag', 'https://x.test?', 'not a url', '//x.test']) {
    let error: unknown
    try {
      normalizeBaseUrl(bad)
    } catch (e) {
      error = e
    }
    expect(error, bad).toBeInstanceOf(BadRequestError)
    expect((error as BadRequestError).param).toBe('base_url')
  }
})
