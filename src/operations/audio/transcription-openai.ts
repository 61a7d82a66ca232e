import type { Usage } from '../../ir'
import { UpstreamFailure } from '../../relay/failure'
import { countTextTokens } from '../../relay/meter/tokenize'
import { forwardForm } from '../form-fields'
import type { OperationAnswer, OperationDialect } from '../types'
import { renderTranscript, type Transcript } from './render-transcript'
import { streamTranscript } from './transcription-stream'
import type { TranscriptionRequest } from './transcription-request'

interface Answer extends Transcript {
  usage?: { type?: string; seconds?: number; input_tokens?: number; output_tokens?: number }
}

/**
 * OpenAI's `/v1/audio/transcriptions` and `/translations` (Azure, Groq and compatible servers alike). The form
 * goes on as it came (the file untouched) with `model` replaced and `response_format` set to what carries the
 * billing (see TranscriptionRequest.upstreamFormat); the answer is rendered in the client's format.
 */
export const openAiTranscription: OperationDialect<TranscriptionRequest> = {
  encode(request, upstreamModel) {
    // whisper ignores `stream` at OpenAI; other servers might not, and the answer is rendered whole anyway
    const replace: Record<string, string | undefined> = { model: upstreamModel, response_format: request.upstreamFormat }
    if (request.billing === 'seconds') replace.stream = undefined
    return { body: forwardForm(request.form, replace) }
  },

  async decode(response, request) {
    if (request.stream) return streamTranscript(response, request)
    const raw = await response.text()
    const answer = parseAnswer(raw)
    return request.billing === 'seconds' ? bySeconds(answer, raw, request) : byTokens(answer, raw, request)
  },
}

function parseAnswer(raw: string): Answer {
  let json: unknown
  try {
    json = JSON.parse(raw)
  } catch {
    throw new UpstreamFailure(0, `upstream sent a transcription that is not JSON: ${raw.slice(0, 200)}`, true)
  }
  if (typeof (json as Answer)?.text !== 'string') throw new UpstreamFailure(0, 'upstream sent a transcription without `text`', true)
  return json as Answer
}

/** Billed per second: OpenAI's `usage.seconds`, else the verbose answer's `duration`, in whole seconds (at least one). */
function bySeconds(answer: Answer, raw: string, request: TranscriptionRequest): OperationAnswer {
  const duration = answer.usage?.type === 'duration' && typeof answer.usage.seconds === 'number' ? answer.usage.seconds : answer.duration
  const seconds = typeof duration === 'number' && Number.isFinite(duration) && duration >= 0 ? Math.max(1, Math.ceil(duration)) : undefined
  const rendered = renderTranscript(request.format, request.task, answer, raw, seconds)
  // no duration at all (a server that ignored verbose_json): metering bills the estimate from the file's size
  return { ...rendered, usage: seconds === undefined ? undefined : usageOf(seconds, 0) }
}

/** Billed per token: the answer's `usage` (audio and text tokens in, text out), else counted from the text. */
function byTokens(answer: Answer, raw: string, request: TranscriptionRequest): OperationAnswer {
  const reported = answer.usage?.type === 'tokens' || typeof answer.usage?.input_tokens === 'number' ? answer.usage : undefined
  const usage = usageOf(reported?.input_tokens ?? request.meter.count(), reported?.output_tokens ?? countTextTokens(answer.text))
  if (request.format === 'text') return { body: `${answer.text}\n`, contentType: 'text/plain; charset=utf-8', usage }
  return { body: raw, contentType: 'application/json', usage }
}

function usageOf(input: number, output: number): Usage {
  return { input: { noCache: input, cacheRead: 0, cacheWrite: 0 }, output: { text: output, reasoning: 0 } }
}
