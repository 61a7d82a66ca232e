import { expect, test } from 'bun:test'
import { PROVIDERS, providerFor } from '../../src/providers/registry'
import { modelListRequest, upstreamRequest } from '../../src/providers/upstream'
import { parseCloudflareModels, parseCohereModels, parseDataIds, parseGeminiModels } from '../../src/providers/model-lists'
import { upstreamProtocolById } from '../../src/relay/chat/upstream-protocols'

const p = (type: number) => providerFor(type)!

test('the registry covers the required new-api channel types, each consistent', () => {
  expect(PROVIDERS.map((x) => x.type)).toEqual([1, 3, 4, 8, 14, 17, 18, 20, 24, 23, 25, 26, 27, 31, 33, 34, 35, 37, 38, 39, 40, 41, 42, 43, 45, 46, 47, 48, 49, 53, 57, 58, 2, 5, 36, 50, 51, 52, 55])
  for (const provider of PROVIDERS) {
    // only a type that serves no chat yet (Jina) speaks nothing, and it says why
    if (provider.protocols.length === 0) expect(provider.note, provider.name).toBeTruthy()
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
  const probe = (id: Parameters<typeof upstreamProtocolById>[0], quirks = {}) => upstreamProtocolById(id).probeBody('m', quirks)
  expect(probe('openai-chat', { maxTokensField: 'max_completion_tokens' })).toMatchObject({ model: 'm', max_completion_tokens: 16 })
  expect(probe('anthropic')).toMatchObject({ model: 'm', max_tokens: 1 })
  expect(probe('openai-responses')).toMatchObject({ model: 'm', max_output_tokens: 16 })
  expect(probe('gemini')).toMatchObject({ generationConfig: { maxOutputTokens: 1 } })
  // Bedrock: Claude's probe is Anthropic's body (wrapped at send), the others' a Converse body without model or stream
  expect(probe('bedrock-invoke')).toMatchObject({ model: 'm', max_tokens: 1 })
  expect(probe('bedrock-converse')).toMatchObject({ messages: [{ role: 'user', content: [{ text: 'hi' }] }], inferenceConfig: { maxTokens: 1 } })
})

test('the long tail at their real roots: chat, Anthropic-compatible and model-list URLs with each vendor’s auth', () => {
  const chat = (type: number, base = '') => upstreamRequest(p(type), base, 'openai-chat', 'm', false, 'k').url
  const messages = (type: number) => upstreamRequest(p(type), '', 'anthropic', 'm', true, 'k')
  const list = (type: number, other = '') => modelListRequest(p(type), '', 'k', { other }).url
  expect(chat(17)).toBe('https://dashscope.aliyuncs.com/compatible-mode/v1/chat/completions')
  expect(messages(17).url).toBe('https://dashscope.aliyuncs.com/apps/anthropic/v1/messages')
  expect(messages(17).headers['x-api-key']).toBe('k')
  expect(list(17)).toBe('https://dashscope.aliyuncs.com/compatible-mode/v1/models')
  expect(chat(26)).toBe('https://open.bigmodel.cn/api/paas/v4/chat/completions')
  expect(chat(26, 'https://open.bigmodel.cn/api/paas/v4')).toBe('https://open.bigmodel.cn/api/paas/v4/chat/completions')
  expect(messages(26).url).toBe('https://open.bigmodel.cn/api/anthropic/v1/messages')
  expect(messages(26).headers.authorization).toBe('Bearer k')
  expect(messages(26).headers['x-api-key']).toBeUndefined()
  expect(messages(26).headers['anthropic-version']).toBe('2023-06-01')
  expect(list(26)).toBe('https://open.bigmodel.cn/api/paas/v4/models')
  expect(chat(27)).toBe('https://api.perplexity.ai/chat/completions')
  expect(p(27).modelList).toBeUndefined()
  expect(chat(34)).toBe('https://api.cohere.ai/compatibility/v1/chat/completions')
  expect(chat(34, 'https://api.cohere.ai/compatibility/v1')).toBe('https://api.cohere.ai/compatibility/v1/chat/completions')
  expect(list(34)).toBe('https://api.cohere.ai/v1/models?page_size=1000')
  expect(chat(35)).toBe('https://api.minimax.io/v1/chat/completions')
  expect(messages(35).url).toBe('https://api.minimax.io/anthropic/v1/messages')
  expect(messages(35).headers.authorization).toBe('Bearer k')
  const cf = upstreamRequest(p(39), '', 'openai-chat', '@cf/meta/llama-3.1-8b-instruct', false, 'k', { other: 'acc1' })
  expect(cf.url).toBe('https://api.cloudflare.com/client/v4/accounts/acc1/ai/v1/chat/completions')
  expect(list(39, 'acc1')).toBe('https://api.cloudflare.com/client/v4/accounts/acc1/ai/models/search?task=Text%20Generation&per_page=1000')
  expect(chat(45)).toBe('https://ark.cn-beijing.volces.com/api/v3/chat/completions')
  expect(messages(45).url).toBe('https://ark.cn-beijing.volces.com/api/compatible/v1/messages')
  expect(messages(45).headers.authorization).toBe('Bearer k')
  expect(list(45)).toBe('https://ark.cn-beijing.volces.com/api/v3/models')
  expect(chat(46)).toBe('https://qianfan.baidubce.com/v2/chat/completions')
  expect(chat(46, 'https://qianfan.baidubce.com/v2')).toBe('https://qianfan.baidubce.com/v2/chat/completions')
  expect(list(46)).toBe('https://qianfan.baidubce.com/v2/models')
  expect(chat(47)).toBe('http://localhost:9997/v1/chat/completions')
  expect(upstreamRequest(p(47), '', 'openai-chat', 'm', false, '').headers.authorization).toBeUndefined()
  expect(p(47).keyRequired).toBe(false)
  expect(() => upstreamRequest(p(38), '', 'openai-chat', 'm', false, 'k')).toThrow(/does not speak/)
})

test('vendors that refuse stream_options are marked so; the rest are asked for stream usage', () => {
  for (const type of [27, 34, 47]) expect(p(type).quirks.streamUsageOption, String(type)).toBe(false)
  for (const type of [17, 26, 35, 39, 45, 46]) expect(p(type).quirks.streamUsageOption, String(type)).toBe(true)
})

test('Cloudflare folds an account URL into root + other; other bases are left alone', () => {
  const fold = p(39).foldBaseUrl!
  expect(fold('https://api.cloudflare.com/client/v4/accounts/abc/ai/v1')).toEqual({ baseUrl: 'https://api.cloudflare.com', other: 'abc' })
  expect(fold('https://api.cloudflare.com/client/v4/accounts/abc/ai')).toEqual({ baseUrl: 'https://api.cloudflare.com', other: 'abc' })
  expect(fold('https://proxy.test/cf/client/v4/accounts/abc')).toEqual({ baseUrl: 'https://proxy.test/cf', other: 'abc' })
  expect(fold('https://api.cloudflare.com')).toBeUndefined()
  expect(p(39).otherField).toMatchObject({ required: true })
})

test('presets are Custom (8) base URLs whose joins land on the services’ real endpoints', async () => {
  const { PRESETS } = await import('../../src/providers/presets')
  const urls = Object.fromEntries(PRESETS.map((preset) => [preset.id, upstreamRequest(p(8), preset.baseUrl, 'openai-chat', 'm', false, 'k').url]))
  expect(urls).toEqual({
    groq: 'https://api.groq.com/openai/v1/chat/completions',
    together: 'https://api.together.xyz/v1/chat/completions',
    fireworks: 'https://api.fireworks.ai/inference/v1/chat/completions',
    cerebras: 'https://api.cerebras.ai/v1/chat/completions',
    vllm: 'http://localhost:8000/v1/chat/completions',
  })
  for (const preset of PRESETS) expect(preset.type).toBe(8)
})

test('vendor model-list shapes', () => {
  expect(parseDataIds([{ id: 'a' }, { id: 'b' }])).toEqual(['a', 'b'])
  expect(parseCohereModels({ models: [{ name: 'command-a-03-2025' }, { name: 3 }], next_page_token: null })).toEqual(['command-a-03-2025'])
  // the models of the endpoints Tollgate relays: chat, embed, rerank (not classify-only or generate-only ones)
  const models = [
    { name: 'command-a-03-2025', endpoints: ['chat'] },
    { name: 'embed-v4.0', endpoints: ['embed', 'embed_jobs'] },
    { name: 'rerank-v3.5', endpoints: ['rerank'] },
    { name: 'old-classifier', endpoints: ['classify'] },
  ]
  expect(parseCohereModels({ models })).toEqual(['command-a-03-2025', 'embed-v4.0', 'rerank-v3.5'])
  expect(parseCloudflareModels({ result: [{ id: 'f8703a00', name: '@cf/meta/llama-3.1-8b-instruct' }], success: true })).toEqual(['@cf/meta/llama-3.1-8b-instruct'])
  expect(parseCloudflareModels({ success: false, result: null })).toEqual([])
})
