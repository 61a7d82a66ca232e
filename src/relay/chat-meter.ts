import type { ChatRequest } from './chat-request'
import type { Meter } from './meter'
import type { RequestBody } from './request-body'
import { countRequestTokens, EXACT_ESTIMATE_BYTES, estimateRequestTokens } from './tokenize'

/**
 * A chat request's meter: its prompt tokens plus its output cap. A short body is counted exactly; a long one
 * reserves an upper bound: its byte count (a byte-level BPE token is never shorter than a byte, and JSON's
 * quotes and keys only add bytes), so nothing is parsed for it; a long body with images or files (whose
 * base64 bytes are not text) is decoded and bounded by its texts, as before. `count()` is exact, on demand.
 */
export function chatMeter(request: ChatRequest, body: RequestBody): Meter {
  const { head } = request
  const size = body.bytes.length
  const base = { model: head.model, stream: head.stream, unit: 'token' as const, maxOutput: head.maxOutputTokens, count: () => countRequestTokens(request.full()) }
  if (size > EXACT_ESTIMATE_BYTES && body.mediaWords() === 0) return { ...base, input: size, exact: false }
  const { tokens, exact } = estimateRequestTokens(request.full(), size)
  return { ...base, input: tokens, exact }
}
