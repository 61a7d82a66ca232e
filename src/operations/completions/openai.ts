import { maskSecrets } from '../../relay/mask'
import { UpstreamFailure } from '../../relay/failure'
import type { OperationAnswer, OperationDialect } from '../types'
import { upstreamJson } from '../upstream-json'
import type { CompletionsRequest } from './request'
import { relaySse, type SseTranslator } from './sse-relay'
import { completionUsage, StreamTally } from './usage'

type Json = Record<string, any>

export const SSE_HEADERS = { 'cache-control': 'no-cache' }
export const SSE_TYPE = 'text/event-stream; charset=utf-8'

/**
 * OpenAI's legacy `/v1/completions` (gpt-3.5-turbo-instruct, DeepSeek's FIM beta, compatible servers): the client's
 * body goes on with only `model` replaced, the answer comes back as sent. A stream asks for the usage chunk when the
 * client did not (and that chunk is dropped from the client's stream again), so the stream is billed on the
 * upstream's count.
 */
export const openAiCompletions: OperationDialect<CompletionsRequest> = {
  encode(request, upstreamModel) {
    const body: Record<string, unknown> = { ...request.body, model: upstreamModel }
    // no max_tokens: the cap metering reserved (metering/output-cap.ts), not the upstream's own default
    if (request.meter.outputCap !== undefined) body.max_tokens = request.meter.outputCap
    if (addsUsage(request)) body.stream_options = { ...(request.body.stream_options as object | undefined), include_usage: true }
    return { body: JSON.stringify(body), contentType: 'application/json' }
  },

  async decode(response, request) {
    if (request.stream) return streamAnswer(response, request)
    const text = await response.text()
    const json: Json = upstreamJson(text, 'completions')
    if (!Array.isArray(json.choices)) throw new UpstreamFailure(0, 'upstream sent a completions answer without `choices`', true)
    const tally = new StreamTally(request)
    for (const choice of json.choices) tally.text(typeof choice?.text === 'string' ? choice.text : '')
    return { body: text, contentType: 'application/json', usage: completionUsage(json.usage) ?? tally.usage() }
  },
}

/** The client streams without asking for usage: we ask for it, and take its chunk out again. */
const addsUsage = (request: CompletionsRequest) => request.stream && !request.includeUsage

async function streamAnswer(response: Response, request: CompletionsRequest): Promise<OperationAnswer> {
  const tally = new StreamTally(request)
  const body = await relaySse(response.body, passthrough(tally, addsUsage(request)))
  // read when the stream is over, or cut: what was given so far
  return {
    body,
    contentType: SSE_TYPE,
    headers: SSE_HEADERS,
    get usage() {
      return tally.usage()
    },
  }
}

/** Each event as the upstream sent it, read for its text and usage on the way. */
function passthrough(tally: StreamTally, dropUsageChunk: boolean): SseTranslator {
  let content = false
  return {
    frame(data) {
      if (data.trim() === '[DONE]') return { frames: 'data: [DONE]\n\n', content: false }
      const chunk = parseChunk(data)
      if (chunk.error && !content) throw new UpstreamFailure(0, maskSecrets(`upstream stream error: ${chunk.error.message ?? JSON.stringify(chunk.error)}`), true)
      const usage = completionUsage(chunk.usage)
      if (usage) tally.reported = usage
      const choices: Json[] = Array.isArray(chunk.choices) ? chunk.choices : []
      if (dropUsageChunk && usage && choices.length === 0) return { frames: '', content: false }
      for (const choice of choices) tally.text(typeof choice?.text === 'string' ? choice.text : '')
      content ||= choices.length > 0
      return { frames: `data: ${data}\n\n`, content: choices.length > 0 }
    },
    end: () => '',
  }
}

export function parseChunk(data: string): Json {
  try {
    return JSON.parse(data) as Json
  } catch {
    throw new UpstreamFailure(0, `upstream sent stream data that is not JSON: ${data.slice(0, 80)}`, true)
  }
}
