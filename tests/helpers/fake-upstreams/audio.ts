/**
 * OpenAI's audio endpoints on the operations fake, at OpenAI's, Azure's and Groq's (`/openai/v1`) paths.
 * Speech streams its bytes in chunks (`[slow]` in the input: a chunk every 20 ms until the reader goes away,
 * counted in `speechStreams`). Transcriptions and translations read the uploaded file (a WAV's duration from
 * its header, anything else at 16 kB a second) and answer in the format asked: whisper-1 with
 * `usage: {type: 'duration'}` in json and verbose_json, gpt-4o-*-transcribe with token usage and only json or
 * text, Groq's whisper without usage (duration only in verbose_json). Importing this file registers the routes.
 */
import { addOperationRoute, type RecordedCall } from './operations'
import { keyProblem } from './images'

export const speechStreams = { opened: 0, cancelled: 0 }

const openAiError = (status: number, message: string, param: string | null = null) =>
  Response.json({ error: { message, type: 'invalid_request_error', param, code: null } }, { status })

const AUDIO_TYPES: Record<string, string> = { mp3: 'audio/mpeg', opus: 'audio/opus', aac: 'audio/aac', flac: 'audio/flac', wav: 'audio/wav', pcm: 'audio/pcm' }

/** The bytes a fake speech answer is made of, in the order they are sent. */
export function fakeSpeechChunks(input: string): Uint8Array[] {
  return [0, 1, 2, 3].map((i) => new TextEncoder().encode(`<chunk ${i} of ${input}>`))
}

function speech(call: RecordedCall, key: string): Response {
  const refused = keyProblem(call, key)
  if (refused) return refused
  const { input, voice, response_format: format = 'mp3', stream_format: streamFormat } = call.json ?? {}
  if (typeof input !== 'string' || !input) return openAiError(400, "Missing required parameter: 'input'.", 'input')
  if (!voice) return openAiError(400, "Missing required parameter: 'voice'.", 'voice')
  const slow = input.includes('[slow]')
  const chunks = fakeSpeechChunks(input)
  speechStreams.opened++
  let sent = 0
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (slow) await Bun.sleep(20)
      else if (sent >= chunks.length) return controller.close()
      const chunk = chunks[sent++ % chunks.length]!
      controller.enqueue(streamFormat === 'sse' ? sseDelta(chunk) : chunk)
      if (!slow && sent === chunks.length && streamFormat === 'sse') controller.enqueue(new TextEncoder().encode(`data: {"type":"speech.audio.done","usage":{"input_tokens":${input.length},"output_tokens":100,"total_tokens":${input.length + 100}}}\n\n`))
    },
    cancel() {
      speechStreams.cancelled++
    },
  })
  const contentType = streamFormat === 'sse' ? 'text/event-stream' : (AUDIO_TYPES[format] ?? 'audio/mpeg')
  return new Response(stream, { headers: { 'content-type': contentType } })
}

const sseDelta = (chunk: Uint8Array) => new TextEncoder().encode(`data: ${JSON.stringify({ type: 'speech.audio.delta', audio: Buffer.from(chunk).toString('base64') })}\n\n`)

/** Seconds of audio: a WAV's data size over its byte rate, anything else at 16 kB a second. */
function fakeDuration(bytes: Uint8Array): number {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  if (bytes.byteLength >= 44 && new TextDecoder().decode(bytes.subarray(0, 4)) === 'RIFF') return view.getUint32(40, true) / view.getUint32(28, true)
  return bytes.byteLength / 16_000
}

/** What the fake "hears" in a file, as segments (the text is their concatenation). */
function fakeSegments(name: string, duration: number, translate: boolean) {
  const first = translate ? ` Hello in English from ${name}.` : ` Hello from ${name}.`
  return [
    { id: 0, seek: 0, start: 0, end: duration / 2, text: first, tokens: [1, 2], temperature: 0, avg_logprob: -0.2, compression_ratio: 1.1, no_speech_prob: 0.01 },
    { id: 1, seek: 0, start: duration / 2, end: duration, text: ' Goodbye.', tokens: [3], temperature: 0, avg_logprob: -0.2, compression_ratio: 1.1, no_speech_prob: 0.01 },
  ]
}

async function transcribe(call: RecordedCall, key: string, translate: boolean): Promise<Response> {
  const refused = keyProblem(call, key)
  if (refused) return refused
  const form = call.form
  const file = form?.get('file')
  if (!(file instanceof File) || file.size === 0) return openAiError(400, "Missing required parameter: 'file'.", 'file')
  const azure = call.path.startsWith('/openai/deployments/')
  const model = azure ? decodeURIComponent(call.path.split('/')[3]!) : String(form!.get('model') ?? '')
  if (!model) return openAiError(400, "Missing required parameter: 'model'.", 'model')
  const format = String(form!.get('response_format') ?? 'json')
  const groq = call.path.startsWith('/openai/v1/')
  const tokens = model.includes('transcribe')
  if (tokens && format !== 'json' && format !== 'text') return openAiError(400, `response_format '${format}' is not compatible with model '${model}'. Use 'json' or 'text'.`, 'response_format')
  const duration = fakeDuration(await file.bytes())
  const segments = fakeSegments(file.name ?? '', duration, translate)
  const text = segments.map((s) => s.text).join('').trim()
  const seconds = Math.ceil(duration)
  const usage = tokens
    ? { type: 'tokens', input_tokens: Math.ceil(duration * 17) + 3, input_token_details: { text_tokens: 3, audio_tokens: Math.ceil(duration * 17) }, output_tokens: 7, total_tokens: Math.ceil(duration * 17) + 10 }
    : { type: 'duration', seconds }
  if (tokens && form!.get('stream') === 'true') return transcriptEvents(segments.map((seg) => seg.text), usage)
  // Groq sends its request id and no usage; OpenAI's translations carry no usage either
  const vendor = groq ? { x_groq: { id: 'req_fake' } } : translate ? {} : { usage }
  switch (format) {
    case 'json':
      return Response.json({ text, ...vendor })
    case 'verbose_json': {
      const words = form!.getAll('timestamp_granularities[]').includes('word') ? { words: [{ word: 'Hello', start: 0, end: 0.4 }] } : {}
      return Response.json({ task: translate ? 'translate' : 'transcribe', language: 'english', duration, text, segments, ...words, ...vendor })
    }
    case 'text':
      return new Response(`${text}\n`, { headers: { 'content-type': 'text/plain; charset=utf-8' } })
    default:
      return openAiError(400, `the fake renders no ${format}: the gateway should ask for verbose_json`, 'response_format')
  }
}

/** gpt-4o-transcribe's stream: a `transcript.text.delta` per piece, then `transcript.text.done` with the text and usage. */
function transcriptEvents(pieces: string[], usage: object): Response {
  const events = [...pieces.map((delta) => ({ type: 'transcript.text.delta', delta })), { type: 'transcript.text.done', text: pieces.join(''), usage }]
  return new Response(events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join(''), { headers: { 'content-type': 'text/event-stream' } })
}

for (const root of ['/v1', '/openai/v1', '/openai/deployments/*']) {
  addOperationRoute(`POST ${root}/audio/speech`, speech)
  addOperationRoute(`POST ${root}/audio/transcriptions`, (call, key) => transcribe(call, key, false))
  addOperationRoute(`POST ${root}/audio/translations`, (call, key) => transcribe(call, key, true))
}
