import { api, ApiError, type Page } from '../../api/client'
import type { LogRow } from '../../api/types'
import { errorMessage, readChunk, type ChunkReading } from '../../lib/chat'
import { createSseParser } from '../../lib/sse'

const PLAYGROUND_PATH = '/pg/chat/completions'

/**
 * Send a Chat Completions request to the session-authenticated playground relay and read its SSE answer as it
 * arrives. `onStart` gets the request id as soon as the headers are in (the log row is found by it, even for a
 * stopped answer); `onChunk` every piece. A refusal throws an ApiError with the server's message; Stop
 * (the signal) rejects with an AbortError.
 */
export async function streamChat(
  body: unknown,
  signal: AbortSignal,
  onStart: (requestId: string | undefined, status: number) => void,
  onChunk: (reading: ChunkReading, raw: string) => void,
): Promise<void> {
  let response: Response
  try {
    response = await fetch(PLAYGROUND_PATH, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify(body),
      signal,
    })
  } catch (error) {
    if (signal.aborted) throw error
    throw new ApiError(0, 'network')
  }
  onStart(response.headers.get('x-request-id') ?? undefined, response.status)
  if (!response.ok) {
    const payload: unknown = await response.json().catch(() => null)
    // the relay's error code (OpenAI's shape: error.code), for the console to word in the reader's language
    const code = (payload as { error?: { code?: unknown } } | null)?.error?.code
    throw new ApiError(response.status, errorMessage(payload) ?? `HTTP ${response.status}`, typeof code === 'string' ? { code } : {})
  }
  if (!response.body || !(response.headers.get('content-type') ?? '').includes('text/event-stream')) {
    // a whole answer instead of a stream: show it at once
    const payload = (await response.json().catch(() => null)) as { choices?: { message?: { content?: string } }[]; usage?: ChunkReading['usage'] } | null
    onChunk({ content: payload?.choices?.[0]?.message?.content ?? '', usage: payload?.usage }, JSON.stringify(payload))
    return
  }
  const reader = response.body.getReader()
  const parser = createSseParser()
  const handle = (events: ReturnType<typeof parser.push>): boolean => {
    for (const event of events) {
      const reading = readChunk(event.data)
      if (reading.error) throw new ApiError(response.status, reading.error)
      if (reading.done) return true
      onChunk(reading, event.data)
    }
    return false
  }
  try {
    for (;;) {
      const { value, done } = await reader.read()
      if (done) {
        handle(parser.end())
        return
      }
      if (handle(parser.push(value))) return
    }
  } finally {
    reader.releaseLock()
  }
}

const POLL_DELAYS_MS = [300, 600, 1200, 2400]
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * The exact charge of a request: its consume row in the user's own log. Rows are written in batches a few
 * hundred milliseconds after the answer ends, so it asks a few times before giving up (undefined).
 */
export async function findCharge(requestId: string, cancelled: () => boolean): Promise<LogRow | undefined> {
  for (const delay of POLL_DELAYS_MS) {
    await sleep(delay)
    if (cancelled()) return undefined
    const page = await api.get<Page<LogRow>>('/api/log/self', { request_id: requestId, type: 2, p: 1, page_size: 1 }).catch(() => undefined)
    const row = page?.items[0]
    if (row) return row
  }
  return undefined
}
