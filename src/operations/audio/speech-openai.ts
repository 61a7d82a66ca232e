import type { Usage } from '../../ir'
import type { OperationDialect } from '../types'
import type { SpeechRequest } from './speech-request'

/**
 * OpenAI's `/v1/audio/speech` (Azure, Groq and compatible servers alike): the body goes on with only `model`
 * replaced; the audio bytes (or `speech.audio.delta` SSE events) stream to the client as they arrive, with the
 * upstream's content type. The characters are billed when the stream ends, or when the client leaves early.
 */
export const openAiSpeech: OperationDialect<SpeechRequest> = {
  encode(request, upstreamModel) {
    return { body: JSON.stringify({ ...request.body, model: upstreamModel }), contentType: 'application/json' }
  },

  async decode(response, request) {
    const contentType = response.headers.get('content-type') ?? (request.body.stream_format === 'sse' ? 'text/event-stream' : 'audio/mpeg')
    const body = response.body ?? new ReadableStream<Uint8Array>({ start: (c) => c.close() })
    return { body, contentType, usage: characterUsage(request.characters) }
  },
}

function characterUsage(characters: number): Usage {
  return { input: { noCache: characters, cacheRead: 0, cacheWrite: 0 }, output: { text: 0, reasoning: 0 } }
}
