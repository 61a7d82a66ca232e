import type { Usage } from '../../ir'
import { UpstreamFailure } from '../../relay/failure'
import { countTextTokens } from '../../relay/meter/tokenize'
import { relaySse } from '../completions/sse-relay'
import type { OperationAnswer } from '../types'
import type { TranscriptionRequest } from './transcription-request'

interface StreamEvent {
  type?: string
  delta?: string
  usage?: { input_tokens?: number; output_tokens?: number }
  error?: { message?: string }
}

/**
 * A streamed transcription (gpt-4o-transcribe and kin with `stream: true`): OpenAI's `transcript.text.delta` and
 * `transcript.text.done` events relayed as they come. Until the done event's token usage arrives, the bill is the
 * audio estimate and the tokens of the text sent, so a stream cut early is billed for what the client got.
 */
export async function streamTranscript(response: Response, request: TranscriptionRequest): Promise<OperationAnswer> {
  let output = 0
  const answer: OperationAnswer = { body: new ReadableStream(), contentType: 'text/event-stream', headers: { 'cache-control': 'no-cache' } }
  const estimate = (): Usage => usageOf(request.meter.count(), output)
  answer.usage = estimate()
  answer.body = await relaySse(response.body, {
    frame(data) {
      const event = parse(data)
      if (event.error) throw new UpstreamFailure(0, `upstream stream error: ${event.error.message ?? 'unknown'}`, true)
      if (event.type === 'transcript.text.delta' && event.delta) {
        output += countTextTokens(event.delta)
        answer.usage = estimate()
      }
      if (event.type === 'transcript.text.done' && typeof event.usage?.input_tokens === 'number') {
        answer.usage = usageOf(event.usage.input_tokens, event.usage.output_tokens ?? output)
      }
      return { frames: `data: ${data}\n\n`, content: event.type === 'transcript.text.delta' || event.type === 'transcript.text.done' }
    },
    end: () => '',
  })
  return answer
}

function parse(data: string): StreamEvent {
  try {
    return JSON.parse(data) as StreamEvent
  } catch {
    return {}
  }
}

function usageOf(input: number, output: number): Usage {
  return { input: { noCache: input, cacheRead: 0, cacheWrite: 0 }, output: { text: output, reasoning: 0 } }
}
