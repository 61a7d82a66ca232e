import { PayloadTooLargeError } from '../errors'

/**
 * The body limit while reading, for bodies whose size is not declared. Bun holds a body with `Content-Length`
 * to that length (the request-context hook refuses one declared over the limit before anything is read), so
 * only a chunked body can be longer than announced, and only its reads need counting. This gives such a
 * request its own `bytes`/`arrayBuffer`/`text`/`json`/`blob`/`formData`, which count bytes as they arrive and
 * throw PayloadTooLargeError (413) once past `limit`, cancelling the rest: every reader goes through them
 * (Elysia's body parsers, the relay's raw-body parser), and what is held never exceeds `limit` by more than
 * the chunks that arrived together with the one that crossed it.
 * `request.body`, the stream itself, is left as it is: nothing reads it directly, and a getter here would
 * make Elysia's parser (which tests it) pay for a counting stream on every chunked request.
 * Requests with a Content-Length, every SDK's normal case, are left alone and pay nothing.
 */
export function limitBodyReads(request: Request, limit: number): void {
  const source = request.body
  if (!source) return
  const bytes = () => readCapped(source, limit)
  const type = () => request.headers.get('content-type') ?? ''
  const methods: Record<string, () => Promise<unknown>> = {
    bytes,
    arrayBuffer: async () => {
      const all = await bytes()
      return all.byteOffset === 0 && all.byteLength === all.buffer.byteLength ? all.buffer : all.slice().buffer
    },
    text: async () => decoder.decode(await bytes()),
    json: async () => JSON.parse(decoder.decode(await bytes())),
    blob: async () => new Blob([await bytes()], { type: type() }),
    formData: async () => new Response(await bytes(), { headers: { 'content-type': type() } }).formData(),
  }
  for (const name in methods) Object.defineProperty(request, name, { value: methods[name], configurable: true })
}

const decoder = new TextDecoder() // UTF-8, invalid bytes replaced and a BOM dropped, as Request.text() does

/**
 * Every byte of the stream as one array, or a 413 at the first chunk past `limit` (the rest is cancelled).
 * `readMany` (Bun's) takes every chunk already queued in one call: with `read` a chunked request cost about
 * twice as much as with the native `text()`.
 */
async function readCapped(source: ReadableStream<Uint8Array>, limit: number): Promise<Uint8Array<ArrayBuffer>> {
  const reader = source.getReader()
  const chunks: Uint8Array<ArrayBuffer>[] = [] // a request body's chunks are never shared memory
  let size = 0
  for (;;) {
    const { done, value } = await reader.readMany()
    for (const chunk of value ?? []) {
      size += chunk.byteLength
      chunks.push(chunk as Uint8Array<ArrayBuffer>)
    }
    if (size > limit) {
      reader.cancel().catch(() => {}) // stop reading what the client still sends; Bun answers and closes
      throw new PayloadTooLargeError(limit)
    }
    if (done) break
  }
  if (chunks.length === 1) return chunks[0]!
  return new Uint8Array(Bun.concatArrayBuffers(chunks))
}
