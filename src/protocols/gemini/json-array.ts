import { SseParser } from '../sse.ts'

const COLON = 0x3a

/**
 * Gemini's own framing of `streamGenerateContent` without `alt=sse`: the same chunks as one JSON array
 * (`[{…}\r\n,{…}]`), each element written as soon as its SSE frame arrives. An error after the first byte is one
 * more element `{error:{…}}`; an SSE comment (the relay's keep-alive while the upstream is silent) becomes
 * whitespace, which JSON allows between elements.
 */
function sseAsJsonArray(sse: Response): Response {
  const reader = sse.body!.getReader()
  const parser = new SseParser()
  const encoder = new TextEncoder()
  let count = 0
  const elements = (events: { data: string }[]) => {
    let out = ''
    for (const event of events) {
      if (!event.data || event.data === '[DONE]') continue
      out += (count++ === 0 ? '[' : ',\r\n') + event.data
    }
    return out
  }
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      for (;;) {
        const { done, value } = await reader.read()
        if (done) {
          const tail = elements(parser.end())
          controller.enqueue(encoder.encode(tail + (count === 0 ? '[]' : ']')))
          controller.close()
          return
        }
        const out = elements(parser.push(value))
        if (out) return controller.enqueue(encoder.encode(out))
        if (value[0] === COLON && parser.idle()) return controller.enqueue(encoder.encode('\n'))
      }
    },
    cancel(reason) {
      return reader.cancel(reason)
    },
  })
  const headers = new Headers(sse.headers)
  headers.set('content-type', 'application/json; charset=utf-8')
  return new Response(body, { status: sse.status, headers })
}

/** A stream answer in the framing the Gemini client asked for: SSE with `alt=sse`, else the JSON array. */
export function streamFraming(sse: Response, request: Request): Response {
  if (!sse.body || new URL(request.url).searchParams.get('alt') === 'sse') return sse
  return sseAsJsonArray(sse)
}
