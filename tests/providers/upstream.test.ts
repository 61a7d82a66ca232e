import { expect, test } from 'bun:test'
import { PROVIDERS, providerFor } from '../../src/providers/registry'
import { modelListRequest, upstreamRequest } from '../../src/providers/upstream'
import { parseDataIds, parseGeminiModels } from '../../src/providers/model-lists'
import { probeBody } from '../../src/providers/probe-body'

const p = (type: number) => providerFor(type)!

test('the registry covers the required new-api channel types, each consistent', () => {
  expect(PROVIDERS.map((x) => x.type).sort((a, b) => a - b)).toEqual([1, 3, 4, 8, 14, 20, 24, 25, 40, 42, 43, 48])
  for (const provider of PROVIDERS) {
    expect(provider.protocols.length).toBeGreaterThan(0)
    for (const protocol of provider.protocols) expect(provider.endpoints[protocol], `${provider.name} ${protocol}`).toBeDefined()
    expect(provider.testModel || provider.type === 8).toBeTruthy()
    if (provider.defaultBaseUrl) expect(provider.defaultBaseUrl).toMatch(/^https?:\/\/[^/]+(\/api)?$/)
  }
  expect(new Set(PROVIDERS.map((x) => x.type)).size).toBe(PROVIDERS.length)
})

test('OpenAI: chat and responses under /v1 with a Bearer key', () => {
  expect(p(1).protocols).toEqual(['openai-chat', 'openai-responses'])
  const chat = upstreamRequest(p(1), '', 'openai-chat', 'gpt-4o', true, 'sk-1')
  expect(chat.url).toBe('https://api.openai.com/v1/chat/completions')
  expect(chat.headers.authorization).toBe('Bearer sk-1')
  expect(chat.headers['content-type']).toBe('application/json')
  expect(upstreamRequest(p(1), 'https://proxy.test/v1', 'openai-responses', 'gpt-4o', false, 'k').url).toBe('https://proxy.test/v1/responses')
})

test('Azure: deployment path, api-key header, api-version from other or the default', () => {
  const base = 'https://res.openai.azure.com'
  const def = upstreamRequest(p(3), base, 'openai-chat', 'gpt-4o', false, 'az-key')
  expect(def.url).toBe('https://res.openai.azure.com/openai/deployments/gpt-4o/chat/completions?api-version=2024-10-21')
  expect(def.headers['api-key']).toBe('az-key')
  expect(def.headers.authorization).toBeUndefined()
  const custom = upstreamRequest(p(3), base, 'openai-chat', 'my deploy', false, 'k', { other: '2025-01-01-preview' })
  expect(custom.url).toBe('https://res.openai.azure.com/openai/deployments/my%20deploy/chat/completions?api-version=2025-01-01-preview')
  expect(upstreamRequest(p(3), base, 'openai-chat', 'm', false, 'k', { other: '{"api_version":"2024-06-01"}' }).url).toEndWith('api-version=2024-06-01')
  expect(() => upstreamRequest(p(3), '', 'openai-chat', 'm', false, 'k')).toThrow(/base URL/)
})

test('Ollama: /v1 chat, no auth header without a key', () => {
  const target = upstreamRequest(p(4), '', 'openai-chat', 'llama3.2', false, '')
  expect(target.url).toBe('http://localhost:11434/v1/chat/completions')
  expect(target.headers.authorization).toBeUndefined()
  expect(p(4).keyRequired).toBe(false)
})

test('Anthropic: /v1/messages with x-api-key and anthropic-version', () => {
  const target = upstreamRequest(p(14), '', 'anthropic', 'claude-haiku-4-5', true, 'sk-ant')
  expect(target.url).toBe('https://api.anthropic.com/v1/messages')
  expect(target.headers['x-api-key']).toBe('sk-ant')
  expect(target.headers['anthropic-version']).toBe('2023-06-01')
  expect(target.headers.authorization).toBeUndefined()
})

test('Gemini: native generateContent, SSE stream path, x-goog-api-key; /v1beta base not doubled', () => {
  const once = upstreamRequest(p(24), '', 'gemini', 'gemini-2.5-flash', false, 'g-key')
  expect(once.url).toBe('https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:generateContent')
  expect(once.headers['x-goog-api-key']).toBe('g-key')
  const stream = upstreamRequest(p(24), 'https://proxy.test/v1beta', 'gemini', 'gemini-2.5-flash', true, 'g')
  expect(stream.url).toBe('https://proxy.test/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse')
})

test('DeepSeek and Moonshot: openai-chat first, anthropic-compatible under /anthropic', () => {
  for (const type of [43, 25]) {
    expect(p(type).protocols).toEqual(['openai-chat', 'anthropic'])
    const target = upstreamRequest(p(type), '', 'anthropic', 'm', false, 'k')
    expect(target.url).toBe(`${p(type).defaultBaseUrl}/anthropic/v1/messages`)
    expect(target.headers['x-api-key']).toBe('k')
  }
  expect(upstreamRequest(p(43), 'https://api.deepseek.com/anthropic', 'anthropic', 'm', false, 'k').url).toBe('https://api.deepseek.com/anthropic/v1/messages')
})

test('OpenAI-compatible vendors use their roots; a speaker of no such protocol throws', () => {
  expect(upstreamRequest(p(20), '', 'openai-chat', 'x', false, 'k').url).toBe('https://openrouter.ai/api/v1/chat/completions')
  expect(upstreamRequest(p(40), '', 'openai-chat', 'x', false, 'k').url).toBe('https://api.siliconflow.cn/v1/chat/completions')
  expect(upstreamRequest(p(42), '', 'openai-chat', 'x', false, 'k').url).toBe('https://api.mistral.ai/v1/chat/completions')
  expect(upstreamRequest(p(48), '', 'openai-responses', 'x', false, 'k').url).toBe('https://api.x.ai/v1/responses')
  expect(upstreamRequest(p(8), 'https://my.test/v1', 'openai-chat', 'x', false, 'k').url).toBe('https://my.test/v1/chat/completions')
  expect(() => upstreamRequest(p(14), '', 'gemini', 'x', false, 'k')).toThrow(/does not speak/)
})

test('model lists: endpoints and parsers', () => {
  expect(modelListRequest(p(1), 'https://x.test/v1', 'k').url).toBe('https://x.test/v1/models')
  expect(modelListRequest(p(14), '', 'k').headers['anthropic-version']).toBe('2023-06-01')
  expect(modelListRequest(p(24), '', 'k').url).toBe('https://generativelanguage.googleapis.com/v1beta/models?pageSize=1000')
  expect(modelListRequest(p(3), 'https://r.test', 'k').url).toBe('https://r.test/openai/models?api-version=2024-10-21')
  expect(parseDataIds({ data: [{ id: 'a' }, { id: 2 }, {}, { id: 'b' }] })).toEqual(['a', 'b'])
  expect(parseDataIds('nope')).toEqual([])
  expect(parseGeminiModels({ models: [{ name: 'models/gemini-2.5-flash' }, { name: 7 }] })).toEqual(['gemini-2.5-flash'])
})

test('probe bodies are minimal real requests of each protocol', () => {
  expect(probeBody('openai-chat', 'm', 'max_completion_tokens')).toMatchObject({ model: 'm', max_completion_tokens: 16 })
  expect(probeBody('anthropic', 'm')).toMatchObject({ model: 'm', max_tokens: 1 })
  expect(probeBody('openai-responses', 'm')).toMatchObject({ model: 'm', max_output_tokens: 16 })
  expect(probeBody('gemini', 'm')).toMatchObject({ generationConfig: { maxOutputTokens: 1 } })
})
