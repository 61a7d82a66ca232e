import { BadRequestError } from '../../errors'
import { inputTokens, outputTokens, type Usage } from '../../ir'
import { UpstreamFailure } from '../../relay/failure'
import { maskSecrets } from '../../relay/mask'
import type { OperationAnswer, OperationDialect } from '../types'
import { upstreamJson } from '../upstream-json'
import { parseChunk, SSE_HEADERS, SSE_TYPE } from './openai'
import type { CompletionsRequest } from './request'
import { relaySse, type SseTranslator } from './sse-relay'
import { completionUsage, StreamTally } from './usage'

type Json = Record<string, any>

/** The fields Mistral's FIM takes; it refuses any other ("Extra inputs are not permitted"). */
const PASSED = ['temperature', 'top_p', 'max_tokens', 'min_tokens', 'stop'] as const

/**
 * Mistral's `POST /v1/fim/completions` (Codestral): one prompt and a suffix in, a chat-shaped answer out
 * (`choices[].message.content`, streamed as `delta.content`). The client is answered in OpenAI's completions shape
 * (`text_completion`, `choices[].text`), `echo` by putting the prompt first; `seed` goes as `random_seed`.
 * What Mistral cannot do (several prompts or choices, token ids, logprobs) is refused naming the field.
 */
export const mistralFim: OperationDialect<CompletionsRequest> = {
  encode(request, upstreamModel) {
    if (request.tokenPrompts || request.prompts.length !== 1) throw new BadRequestError('a Mistral FIM model completes one prompt, given as a string', 'prompt')
    if (request.choices > 1) throw new BadRequestError('a Mistral FIM model answers one choice: n and best_of must be 1', request.body.n !== undefined ? 'n' : 'best_of')
    if (request.logprobs !== undefined) throw new BadRequestError('a Mistral FIM model returns no logprobs', 'logprobs')
    const body: Record<string, unknown> = { model: upstreamModel, prompt: request.prompts[0] }
    if (request.suffix !== undefined) body.suffix = request.suffix
    for (const field of PASSED) if (request.body[field] !== undefined && request.body[field] !== null) body[field] = request.body[field]
    if (Number.isInteger(request.body.seed)) body.random_seed = request.body.seed
    if (request.meter.outputCap !== undefined) body.max_tokens = request.meter.outputCap
    if (request.stream) body.stream = true
    return { body: JSON.stringify(body), contentType: 'application/json' }
  },

  async decode(response, request) {
    if (request.stream) return streamAnswer(response, request)
    const json: Json = upstreamJson(await response.text(), 'FIM')
    const choice: Json | undefined = Array.isArray(json.choices) ? json.choices[0] : undefined
    if (!choice) throw new UpstreamFailure(0, 'upstream sent a FIM answer without `choices`', true)
    const tally = new StreamTally(request)
    const content = contentText(choice.message?.content)
    tally.text(content)
    const text = (request.echo ? request.prompts[0]! : '') + content
    const usage = completionUsage(json.usage) ?? tally.usage()
    const answer = { ...head(json, request), choices: [{ text, index: 0, logprobs: null, finish_reason: finishReason(choice.finish_reason) }], usage: openAiUsage(usage) }
    return { body: JSON.stringify(answer), contentType: 'application/json', usage }
  },

  errorMessage(_status, body) {
    // a 422 lists what FastAPI refused: [{loc: ["body", "n"], msg: "Extra inputs are not permitted"}]
    const detail = (body as { detail?: unknown } | null)?.detail
    if (!Array.isArray(detail)) return undefined
    return detail.map((d: { loc?: unknown[]; msg?: unknown }) => `${(d.loc ?? []).filter((p) => p !== 'body').join('.')}: ${d.msg}`).join('; ')
  },
}

async function streamAnswer(response: Response, request: CompletionsRequest): Promise<OperationAnswer> {
  const tally = new StreamTally(request)
  const body = await relaySse(response.body, chunksAsCompletions(tally, request))
  return {
    body,
    contentType: SSE_TYPE,
    headers: SSE_HEADERS,
    get usage() {
      return tally.usage()
    },
  }
}

/** Mistral's `chat.completion.chunk`s as `text_completion` chunks; its usage (in the last chunk) as a chunk of its own when asked for. */
function chunksAsCompletions(tally: StreamTally, request: CompletionsRequest): SseTranslator {
  let content = false
  let last: Json | undefined
  let finished = false
  const close = () => {
    if (finished) return ''
    finished = true
    const usage = request.includeUsage && last ? `data: ${JSON.stringify({ ...head(last, request), choices: [], usage: openAiUsage(tally.usage()) })}\n\n` : ''
    return `${usage}data: [DONE]\n\n`
  }
  return {
    frame(data) {
      if (data.trim() === '[DONE]') return { frames: close(), content: false }
      const chunk = parseChunk(data)
      if (chunk.error || chunk.object === 'error') {
        const message = chunk.error?.message ?? chunk.message ?? JSON.stringify(chunk)
        if (!content) throw new UpstreamFailure(0, maskSecrets(`upstream stream error: ${message}`), true)
        return { frames: `data: ${JSON.stringify({ error: { message, type: 'upstream_error' } })}\n\n`, content: false }
      }
      last = chunk
      const usage = completionUsage(chunk.usage)
      if (usage) tally.reported = usage
      const choice: Json | undefined = Array.isArray(chunk.choices) ? chunk.choices[0] : undefined
      if (!choice) return { frames: '', content: false }
      const delta = contentText(choice.delta?.content)
      tally.text(delta)
      // echo: the prompt goes first, as OpenAI sends it (the client's own text, not billed as output)
      const text = request.echo && !content ? request.prompts[0]! + delta : delta
      content = true
      const out = { ...head(chunk, request), choices: [{ text, index: 0, logprobs: null, finish_reason: choice.finish_reason ? finishReason(choice.finish_reason) : null }] }
      return { frames: `data: ${JSON.stringify(out)}\n\n`, content: true }
    },
    end: close,
  }
}

function head(json: Json, request: CompletionsRequest) {
  return { id: typeof json.id === 'string' ? json.id : '', object: 'text_completion', created: typeof json.created === 'number' ? json.created : Math.floor(Date.now() / 1000), model: typeof json.model === 'string' ? json.model : request.model }
}

/** Message content as a string, or (newer Mistral answers) an array of `{type: "text", text}` chunks. */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content
  if (Array.isArray(content)) return content.map((c: { text?: unknown }) => (typeof c?.text === 'string' ? c.text : '')).join('')
  return ''
}

/** Mistral stops for `model_length` where OpenAI says `length`; `error` ends the answer too. */
function finishReason(reason: unknown): string {
  if (reason === 'length' || reason === 'model_length') return 'length'
  return typeof reason === 'string' && reason !== 'error' ? reason : 'stop'
}

/** Metering's usage in OpenAI's words (the upstream's count, or ours when it sent none). */
function openAiUsage(usage: Usage) {
  const prompt = inputTokens(usage)
  const completion = outputTokens(usage)
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion }
}
