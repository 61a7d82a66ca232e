/**
 * Legacy completions and fill-in-the-middle on the operations fake, in each vendor's shape (Bearer everywhere):
 * - OpenAI `POST /v1/completions`: prompt a string or strings, `suffix`, `n`, `echo`, `logprobs`, `max_tokens`
 *   (default 16, as OpenAI's), SSE chunks with `stream_options.include_usage` (refused without `stream`).
 * - DeepSeek `POST /beta/completions`: the same, for deepseek-chat only, `max_tokens` at most 4096, usage with
 *   `prompt_cache_hit_tokens` (half the prompt when it starts with "[cached]").
 * - Mistral `POST /v1/fim/completions`: one prompt string + suffix, unknown fields refused with FastAPI's 422,
 *   a chat-shaped answer (`message.content`, streamed as `delta.content`, usage in the last chunk).
 * The middle comes from `fakeFill`; a prompt holding `[error-before]` (or a model named `…flaky…`) streams an error
 * event first, `[break]` breaks the stream after two chunks, `[slow]` streams a word every 20 ms until the reader
 * goes away (`slowStreams`).
 * Importing this file registers the routes.
 */
import { addOperationRoute, type RecordedCall } from './operations'

export const slowStreams = { opened: 0, cancelled: 0 }

/** The middle the fake writes: four words (each a token), cut at `maxTokens`. */
export function fakeFill(prompt: string, suffix = '', maxTokens = 16): { words: string[]; finish: 'stop' | 'length' } {
  const all = [' fill', ` p${prompt.length}`, ` s${suffix.length}`, ' done']
  return maxTokens < all.length ? { words: all.slice(0, maxTokens), finish: 'length' } : { words: all, finish: 'stop' }
}

/** The prompt tokens the fakes report: words of the prompt and the suffix. */
export function fakePromptTokens(prompt: string, suffix = ''): number {
  return `${prompt} ${suffix}`.split(/\s+/).filter(Boolean).length
}

const encoder = new TextEncoder()
const openAiError = (status: number, message: string, param: string | null = null) =>
  Response.json({ error: { message, type: 'invalid_request_error', param, code: null } }, { status })

type Frame = Record<string, unknown> | '[DONE]'

/** An SSE body of `frames`; the specials: `[break]` errors the stream after two frames, `[slow]` never ends. */
function sse(frames: Frame[], prompt: string): Response {
  const slow = prompt.includes('[slow]')
  if (slow) slowStreams.opened++
  let i = 0
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (slow) {
        await Bun.sleep(20)
        return controller.enqueue(encoder.encode(`data: ${JSON.stringify(frames[0])}\n\n`))
      }
      if (prompt.includes('[break]') && i === 2) {
        await Bun.sleep(30) // the frames before go out first
        return controller.error(new Error('connection reset'))
      }
      if (i >= frames.length) return controller.close()
      const frame = frames[i++]!
      controller.enqueue(encoder.encode(`data: ${frame === '[DONE]' ? frame : JSON.stringify(frame)}\n\n`))
    },
    cancel() {
      if (slow) slowStreams.cancelled++
    },
  })
  return new Response(stream, { headers: { 'content-type': 'text/event-stream' } })
}

function openAiLike(call: RecordedCall, vendor: 'openai' | 'deepseek'): Response {
  const b = call.json ?? {}
  if (b.prompt === undefined) return openAiError(400, "Missing required parameter: 'prompt'.", 'prompt')
  if (b.stream_options && b.stream !== true) return openAiError(400, "The 'stream_options' parameter is only allowed when 'stream' is enabled.", 'stream_options')
  if (vendor === 'deepseek' && b.model !== 'deepseek-chat') return openAiError(400, 'Model Not Exist')
  if (vendor === 'deepseek' && b.max_tokens > 4096) return openAiError(400, 'Invalid max_tokens value, the valid range of max_tokens is [1, 4096]')
  const prompts: string[] = typeof b.prompt === 'string' ? [b.prompt] : b.prompt
  const n = b.n ?? 1
  const created = 1_700_000_000
  const choices = prompts.flatMap((prompt, p) =>
    Array.from({ length: n }, (_, c) => {
      const fill = fakeFill(prompt, b.suffix, b.max_tokens ?? 16)
      const text = (b.echo ? prompt : '') + fill.words.join('')
      const logprobs = b.logprobs === undefined || b.logprobs === null ? null : { tokens: fill.words, token_logprobs: fill.words.map(() => -0.5), top_logprobs: null, text_offset: fill.words.map((_, i) => i) }
      return { prompt, fill, text, index: p * n + c, logprobs }
    }),
  )
  const promptTokens = prompts.reduce((sum, p) => sum + fakePromptTokens(p, b.suffix), 0)
  const completionTokens = choices.reduce((sum, c) => sum + c.fill.words.length, 0)
  const usage: Record<string, unknown> = { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens }
  if (vendor === 'deepseek') {
    const hit = prompts[0]!.startsWith('[cached]') ? Math.floor(promptTokens / 2) : 0
    Object.assign(usage, { prompt_cache_hit_tokens: hit, prompt_cache_miss_tokens: promptTokens - hit })
  }
  const head = { id: `cmpl-${vendor}-1`, object: 'text_completion', created, model: b.model }
  if (b.stream !== true) return Response.json({ ...head, choices: choices.map(({ text, index, logprobs, fill }) => ({ text, index, logprobs, finish_reason: fill.finish })), usage })
  const prompt = prompts[0]!
  if (prompt.includes('[error-before]') || String(b.model).includes('flaky')) return sse([{ error: { message: `overloaded (key ${call.headers.authorization?.slice(7)})`, type: 'server_error' } }], prompt)
  const frames: Frame[] = []
  for (const c of choices) {
    if (b.echo) frames.push({ ...head, choices: [{ text: c.prompt, index: c.index, logprobs: null, finish_reason: null }] })
    c.fill.words.forEach((word, i) => frames.push({ ...head, choices: [{ text: word, index: c.index, logprobs: null, finish_reason: i === c.fill.words.length - 1 ? c.fill.finish : null }] }))
  }
  if (b.stream_options?.include_usage) frames.push({ ...head, choices: [], usage })
  frames.push('[DONE]')
  return sse(frames, prompt)
}

const MISTRAL_FIELDS = new Set(['model', 'prompt', 'suffix', 'temperature', 'top_p', 'max_tokens', 'min_tokens', 'stream', 'stop', 'random_seed', 'metadata'])

function mistral(call: RecordedCall): Response {
  const b = call.json ?? {}
  const extra = Object.keys(b).filter((k) => !MISTRAL_FIELDS.has(k))
  if (extra.length) return Response.json({ detail: extra.map((k) => ({ type: 'extra_forbidden', loc: ['body', k], msg: 'Extra inputs are not permitted', input: b[k] })) }, { status: 422 })
  if (typeof b.prompt !== 'string') return Response.json({ detail: [{ type: 'string_type', loc: ['body', 'prompt'], msg: 'Input should be a valid string', input: b.prompt }] }, { status: 422 })
  const fill = fakeFill(b.prompt, b.suffix, b.max_tokens ?? 16)
  const promptTokens = fakePromptTokens(b.prompt, b.suffix)
  const usage = { prompt_tokens: promptTokens, completion_tokens: fill.words.length, total_tokens: promptTokens + fill.words.length }
  const head = { id: 'fim-mistral-1', created: 1_700_000_001, model: b.model }
  if (b.stream !== true) {
    const message = { role: 'assistant', content: fill.words.join(''), tool_calls: null, prefix: false }
    return Response.json({ ...head, object: 'chat.completion', choices: [{ index: 0, message, finish_reason: fill.finish === 'length' ? 'length' : 'stop' }], usage })
  }
  const chunk = (delta: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ ...head, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: null, ...extra }] })
  const frames: Frame[] = [chunk({ role: 'assistant', content: '' })]
  for (const word of fill.words) frames.push(chunk({ content: word }))
  frames.push({ ...chunk({ content: '' }, { finish_reason: fill.finish }), usage }, '[DONE]')
  return sse(frames, b.prompt)
}

const bearer = (route: (call: RecordedCall) => Response, unauthorized: (call: RecordedCall) => Response) => (call: RecordedCall, key: string) =>
  call.headers.authorization === `Bearer ${key}` ? route(call) : unauthorized(call)

addOperationRoute('POST /v1/completions', bearer((c) => openAiLike(c, 'openai'), () => openAiError(401, 'Incorrect API key provided')))
addOperationRoute('POST /beta/completions', bearer((c) => openAiLike(c, 'deepseek'), () => openAiError(401, 'Authentication Fails (no such user)')))
addOperationRoute('POST /v1/fim/completions', bearer(mistral, () => Response.json({ message: 'Unauthorized', request_id: 'mistral-401' }, { status: 401 })))
