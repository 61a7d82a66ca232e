/**
 * The shipped price table: US$ per million tokens as each vendor lists them (input, output, cache read,
 * cache write). Converted to new-api ratios in prices.ts; the options ModelRatio, CompletionRatio,
 * CacheRatio, CreateCacheRatio and ModelPrice override it model by model.
 * A missing cache price means cache tokens cost what input tokens cost.
 */
export interface ListPrice {
  input: number
  output: number
  cacheRead?: number
  cacheWrite?: number
  /** audio tokens (realtime models): input and output, US$ per million */
  audioInput?: number
  audioOutput?: number
}

const openai = (input: number, output: number, cacheRead?: number): ListPrice => ({ input, output, cacheRead })
// OpenAI's realtime models: text in, out, cached; audio in, out (cached audio is billed as cached input)
const realtime = (input: number, output: number, cacheRead: number, audioInput: number, audioOutput: number): ListPrice => ({ input, output, cacheRead, audioInput, audioOutput })
// Anthropic: cache reads 0.1×, 5-minute cache writes 1.25× the input price
const anthropic = (input: number, output: number): ListPrice => ({ input, output, cacheRead: input * 0.1, cacheWrite: input * 1.25 })
const gemini = (input: number, output: number, cacheRead?: number): ListPrice => ({ input, output, cacheRead })

export const DEFAULT_PRICES: Record<string, ListPrice> = {
  // OpenAI
  'gpt-5': openai(1.25, 10, 0.125),
  'gpt-5-mini': openai(0.25, 2, 0.025),
  'gpt-5-nano': openai(0.05, 0.4, 0.005),
  'gpt-5-chat-latest': openai(1.25, 10, 0.125),
  'gpt-4.1': openai(2, 8, 0.5),
  'gpt-4.1-mini': openai(0.4, 1.6, 0.1),
  'gpt-4.1-nano': openai(0.1, 0.4, 0.025),
  'gpt-4o': openai(2.5, 10, 1.25),
  'gpt-4o-mini': openai(0.15, 0.6, 0.075),
  'gpt-4-turbo': openai(10, 30),
  'gpt-realtime': realtime(4, 16, 0.4, 32, 64),
  'gpt-realtime-mini': realtime(0.6, 2.4, 0.06, 10, 20),
  'gpt-4o-realtime-preview': realtime(5, 20, 2.5, 40, 80),
  'gpt-4o-mini-realtime-preview': realtime(0.6, 2.4, 0.3, 10, 20),
  'gpt-4': openai(30, 60),
  'gpt-3.5-turbo': openai(0.5, 1.5),
  o1: openai(15, 60, 7.5),
  o3: openai(2, 8, 0.5),
  'o3-mini': openai(1.1, 4.4, 0.55),
  'o4-mini': openai(1.1, 4.4, 0.275),
  'text-embedding-3-small': openai(0.02, 0),
  'text-embedding-3-large': openai(0.13, 0),
  'text-embedding-ada-002': openai(0.1, 0),
  'omni-moderation-latest': openai(0, 0),
  'text-moderation-latest': openai(0, 0),
  // speech: US$ per million characters of input (the meter counts characters); OpenAI puts gpt-4o-mini-tts at ~$0.015 a minute
  'tts-1': openai(15, 0),
  'tts-1-hd': openai(30, 0),
  'gpt-4o-mini-tts': openai(15, 0),
  // transcription: whisper-1 US$0.006 a minute = 100 per million seconds (the meter counts seconds); Groq's whisper
  // US$0.111 and 0.04 an hour. The gpt-4o ones bill tokens: input at the audio-token price (text prompts are a few tokens)
  'whisper-1': openai(100, 0),
  'whisper-large-v3': openai(30.83, 0),
  'whisper-large-v3-turbo': openai(11.11, 0),
  'gpt-4o-transcribe': openai(6, 10),
  'gpt-4o-mini-transcribe': openai(3, 5),
  'gpt-3.5-turbo-instruct': openai(1.5, 2),
  'davinci-002': openai(2, 2),
  'babbage-002': openai(0.4, 0.4),
  // Anthropic
  'claude-opus-4-5': anthropic(5, 25),
  'claude-opus-4-1': anthropic(15, 75),
  'claude-opus-4': anthropic(15, 75),
  'claude-sonnet-4-5': anthropic(3, 15),
  'claude-sonnet-4': anthropic(3, 15),
  'claude-3-7-sonnet': anthropic(3, 15),
  'claude-haiku-4-5': anthropic(1, 5),
  'claude-3-5-haiku': anthropic(0.8, 4),
  'claude-3-haiku': anthropic(0.25, 1.25),
  // Google Gemini (prompts up to 200k tokens)
  'gemini-3-pro-preview': gemini(2, 12, 0.2),
  'gemini-2.5-pro': gemini(1.25, 10, 0.3125),
  'gemini-2.5-flash': gemini(0.3, 2.5, 0.075),
  'gemini-2.5-flash-lite': gemini(0.1, 0.4, 0.025),
  'gemini-2.0-flash': gemini(0.1, 0.4, 0.025),
  'gemini-2.0-flash-lite': gemini(0.075, 0.3),
  // DeepSeek (V3.2)
  'deepseek-chat': openai(0.28, 0.42, 0.028),
  'deepseek-reasoner': openai(0.28, 0.42, 0.028),
  // embeddings of other vendors, per million input tokens as each lists them in US$
  'gemini-embedding-001': gemini(0.15, 0),
  'text-embedding-004': gemini(0, 0), // free on the Gemini API
  'embed-v4.0': openai(0.12, 0),
  'embed-english-v3.0': openai(0.1, 0),
  'embed-multilingual-v3.0': openai(0.1, 0),
  'embed-english-light-v3.0': openai(0.1, 0),
  'embed-multilingual-light-v3.0': openai(0.1, 0),
  'mistral-embed': openai(0.1, 0),
  'codestral-embed': openai(0.15, 0),
  // Jina sells tokens in packs: US$50 for a billion at its paid tier
  'jina-embeddings-v3': openai(0.05, 0),
  'jina-embeddings-v4': openai(0.05, 0),
  'jina-clip-v2': openai(0.05, 0),
  // DashScope international (Singapore); Beijing lists the same in CNY
  'text-embedding-v4': openai(0.07, 0),
  'text-embedding-v3': openai(0.07, 0),
  // Mistral's Codestral (fill-in-the-middle)
  codestral: openai(0.3, 0.9),
  // rerank, per token of query and documents: Jina (its pay-as-you-go token price), DashScope
  'jina-reranker-v2-base-multilingual': openai(0.05, 0),
  'jina-reranker-m0': openai(0.05, 0),
  'jina-colbert-v2': openai(0.05, 0),
  'gte-rerank-v2': openai(0.115, 0),
  'qwen3-rerank': openai(0.1, 0),
}

/**
 * US$ per call for the models billed so (the option ModelPrice overrides it model by model): Cohere's rerankers at
 * US$2 per 1,000 searches (a search: one query over up to 100 documents).
 */
/** US$ per asynchronous task, new-api's default ModelPrice for Midjourney's actions and Suno (docs/tasks.md). */
const DEFAULT_TASK_PRICES: Record<string, number> = {
  mj_imagine: 0.1, mj_variation: 0.1, mj_reroll: 0.1, mj_blend: 0.1, mj_modal: 0.1, mj_zoom: 0.1, mj_shorten: 0.1, mj_high_variation: 0.1,
  mj_low_variation: 0.1, mj_pan: 0.1, mj_inpaint: 0, mj_custom_zoom: 0, mj_describe: 0.05, mj_upscale: 0.05, mj_upload: 0.05,
  suno_music: 0.1, suno_lyrics: 0.01,
}

/**
 * US$ per second of video (times the size's ratio: src/tasks/video/), as OpenAI and Google list them: sora-2 $0.10,
 * sora-2-pro $0.30 at 720p ($0.50 at 1024p: the 1.666667 size ratio), Veo 3 $0.40, Veo 3 Fast $0.15 (docs/tasks.md).
 */
const DEFAULT_VIDEO_PRICES: Record<string, number> = {
  'sora-2': 0.1, 'sora-2-pro': 0.3,
  'veo-3.0-generate-001': 0.4, 'veo-3.0-fast-generate-001': 0.15, 'veo-3.1-generate-preview': 0.4, 'veo-3.1-fast-generate-preview': 0.15,
}

export const DEFAULT_CALL_PRICES: Record<string, number> = {
  ...DEFAULT_TASK_PRICES,
  ...DEFAULT_VIDEO_PRICES,
  'rerank-v3.5': 0.002,
  'rerank-english-v3.0': 0.002,
  'rerank-multilingual-v3.0': 0.002,
}

/**
 * US$ per image as OpenAI lists them, by `size` or `size/quality` (dall-e-3's `hd`, gpt-image's low/medium/high).
 * The option ImagePrice overrides it model by model.
 */
export const DEFAULT_IMAGE_PRICES: Record<string, Record<string, number>> = {
  'dall-e-2': { '256x256': 0.016, '512x512': 0.018, '1024x1024': 0.02 },
  'dall-e-3': { '1024x1024': 0.04, '1024x1792': 0.08, '1792x1024': 0.08, '1024x1024/hd': 0.08, '1024x1792/hd': 0.12, '1792x1024/hd': 0.12 },
  'gpt-image-1': gptImage([0.011, 0.016], [0.042, 0.063], [0.167, 0.25]),
  'gpt-image-1-mini': gptImage([0.005, 0.006], [0.011, 0.015], [0.036, 0.052]),
}

/** [square, portrait or landscape] per quality; `auto` quality is priced as high and `auto` size as oblong (the most either can cost). */
function gptImage(low: [number, number], medium: [number, number], high: [number, number]): Record<string, number> {
  const table: Record<string, number> = {}
  for (const [quality, [square, oblong]] of Object.entries({ low, medium, high, auto: high })) {
    table[`1024x1024/${quality}`] = square
    table[`1024x1536/${quality}`] = oblong
    table[`1536x1024/${quality}`] = oblong
    table[`auto/${quality}`] = oblong
  }
  return table
}
