import { describe, expect, test } from 'bun:test'
import { canChat, chooseModel, isPriced, modelKind, noneHasPrice, pricesFrom, rankModels, type ModelPrices } from '../../src/ui/lib/model-choice'

const prices = (priced: string[], selfUse = false): ModelPrices => ({ priced: new Set(priced), selfUse })

describe('modelKind: what a model can do, from its name', () => {
  const cases: Record<string, string[]> = {
    chat: [
      'gpt-4o-mini', 'gpt-4o', 'gpt-4.1', 'o3-mini', 'claude-sonnet-4-5', 'gemini-2.5-flash', 'deepseek-chat', 'deepseek-reasoner', 'qwen-max',
      'Qwen/Qwen2.5-72B-Instruct', 'meta-llama/Llama-3.2-11B-Vision-Instruct', 'glm-4-plus', 'mistral-large-latest', 'llama3.1:8b', 'gpt-4o-audio-preview',
      'moonshot-v1-8k', 'grok-4', 'doubao-seed-1-6', 'ernie-4.0-8k', 'command-r-plus', 'yi-large', 'snippet-model-1',
    ],
    embedding: ['text-embedding-3-small', 'text-embedding-ada-002', 'nomic-embed-text', 'mxbai-embed-large', 'gemini-embedding-001', 'BAAI/bge-m3', 'bge-large-zh-v1.5', 'intfloat/multilingual-e5-large', 'thenlper/gte-large', 'jina-embeddings-v3', 'text-search-ada-doc-001', 'acme-embed'],
    rerank: ['jina-reranker-v2-base-multilingual', 'BAAI/bge-reranker-v2-m3', 'rerank-english-v3.0', 'gte-rerank'],
    speech: ['tts-1', 'tts-1-hd', 'gpt-4o-mini-tts', 'speech-02-hd', 'cosyvoice-v1', 'FunAudioLLM/CosyVoice2-0.5B'],
    transcription: ['whisper-1', 'gpt-4o-transcribe', 'gpt-4o-mini-transcribe', 'paraformer-realtime-v2', 'FunAudioLLM/SenseVoiceSmall', 'whisper-large-v3-turbo'],
    realtime: ['gpt-4o-realtime-preview', 'gpt-realtime'],
    image: ['dall-e-3', 'gpt-image-1', 'imagen-4.0-generate-001', 'black-forest-labs/FLUX.1-schnell', 'stable-diffusion-xl', 'cogview-4', 'wanx2.1-t2i-turbo', 'gemini-2.5-flash-image-preview', 'grok-2-image', 'qwen-image', 'mj_imagine', 'doubao-seedream-4-0'],
    video: ['sora-2', 'veo-3.0-generate-001', 'kling-v1', 'doubao-seedance-1-0-pro'],
    moderation: ['omni-moderation-latest', 'text-moderation-stable'],
    completion: ['babbage-002', 'davinci-002', 'gpt-3.5-turbo-instruct', 'text-davinci-003', 'code-davinci-002', 'davinci'],
  }
  for (const [kind, names] of Object.entries(cases)) {
    test(kind, () => {
      expect(names.map((name) => [name, modelKind(name)])).toEqual(names.map((name) => [name, kind]))
      expect(names.every(canChat)).toBe(kind === 'chat')
    })
  }
})

describe('prices', () => {
  test("/api/pricing's answer: a price or free counts, none does not", () => {
    const read = pricesFrom({
      self_use_mode: false,
      items: [
        { model: 'a', priced: true, mode: 'ratio' },
        { model: 'b', priced: true, mode: 'call' },
        { model: 'c', priced: false, mode: 'none' },
        { model: 'd', priced: false, mode: 'free' },
      ],
    })
    expect([...read.priced].sort()).toEqual(['a', 'b', 'd'])
    expect(read.selfUse).toBe(false)
  })

  test('unknown while prices load; self-use mode prices everything; a model the list lacks has none', () => {
    expect(isPriced('x', undefined)).toBeUndefined()
    expect(isPriced('x', prices([], true))).toBe(true)
    expect(isPriced('x', prices(['y']))).toBe(false)
    expect(isPriced('y', prices(['y']))).toBe(true)
  })
})

describe('rankModels and chooseModel', () => {
  const models = ['babbage-002', 'BAAI/bge-m3', 'claude-haiku', 'gpt-4o', 'gpt-4o-mini', 'text-embedding-3-small', 'tts-1']

  test('by name alone: chat models first, in their order', () => {
    expect(rankModels(models)).toEqual(['claude-haiku', 'gpt-4o', 'gpt-4o-mini', 'babbage-002', 'BAAI/bge-m3', 'text-embedding-3-small', 'tts-1'])
    expect(chooseModel(models)).toBe('claude-haiku')
  })

  test('chat and priced, then chat without a price, then priced others, then the rest', () => {
    const known = prices(['gpt-4o-mini', 'text-embedding-3-small'])
    expect(rankModels(models, known)).toEqual(['gpt-4o-mini', 'claude-haiku', 'gpt-4o', 'text-embedding-3-small', 'babbage-002', 'BAAI/bge-m3', 'tts-1'])
    expect(chooseModel(models, { prices: known })).toBe('gpt-4o-mini')
    // self-use mode: every model is free, so the first chat model
    expect(chooseModel(models, { prices: prices([], true) })).toBe('claude-haiku')
  })

  test('only models that cannot chat: the first of them rather than nothing; none at all: undefined', () => {
    expect(chooseModel(['text-embedding-3-small', 'babbage-002'])).toBe('text-embedding-3-small')
    expect(chooseModel([])).toBeUndefined()
    expect(chooseModel([' ', ''])).toBeUndefined()
  })

  test('the remembered model wins while it is offered and not known to lack a price', () => {
    const known = prices(['gpt-4o', 'gpt-4o-mini'])
    expect(chooseModel(models, { prices: known, remembered: 'gpt-4o' })).toBe('gpt-4o')
    expect(chooseModel(models, { remembered: 'gpt-4o' })).toBe('gpt-4o') // prices still loading
    expect(chooseModel(models, { prices: known, remembered: 'claude-haiku' })).toBe('gpt-4o') // no price any more
    expect(chooseModel(models, { prices: known, remembered: 'gone-model' })).toBe('gpt-4o')
  })

  test('a model picked on the page wins while offered, even one that has no price (the person chose it)', () => {
    const known = prices(['gpt-4o'])
    expect(chooseModel(models, { prices: known, remembered: 'gpt-4o', picked: 'tts-1' })).toBe('tts-1')
    expect(chooseModel(models, { prices: known, picked: 'gone-model' })).toBe('gpt-4o')
  })

  test('names are trimmed and counted once', () => {
    expect(rankModels([' gpt-4o ', 'gpt-4o', 'babbage-002'])).toEqual(['gpt-4o', 'babbage-002'])
  })
})

describe('noneHasPrice: when a snippet would only be refused', () => {
  test('prices known, self-use off, not one model priced', () => {
    expect(noneHasPrice(['a', 'b'], prices(['c']))).toBe(true)
    expect(noneHasPrice(['a', 'b'], prices(['b']))).toBe(false)
    expect(noneHasPrice(['a', 'b'], prices([], true))).toBe(false)
    expect(noneHasPrice(['a', 'b'], undefined)).toBe(false) // unknown: no warning
    expect(noneHasPrice([], prices([]))).toBe(false) // nothing to call is another message
  })
})
