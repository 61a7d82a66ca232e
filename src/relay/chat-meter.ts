import { isSpliced } from '../ir'
import type { ChatRequest } from './chat-request'
import type { Meter } from './meter'
import type { RequestBody } from './request-body'
import { countRequestTokens, EXACT_ESTIMATE_BYTES, estimateRequestTokens, requestBytesBound } from './tokenize'

/**
 * A chat request's meter: its prompt tokens plus its output cap. A short body is counted exactly; a long one
 * reserves an upper bound: its byte count (a byte-level BPE token is never shorter than a byte, and JSON's
 * quotes and keys only add bytes), so nothing is parsed for it; a long body with images or files (whose
 * base64 bytes are not text) is bounded by its texts, read with its long strings cut (their bytes in the body
 * bound them; spliced-body.ts) where it can be, else decoded whole. `count()` is exact, on demand.
 */
export function chatMeter(request: ChatRequest, body: RequestBody): Meter {
  const { head } = request
  const size = body.size
  const base = { model: head.model, stream: head.stream, unit: 'token' as const, maxOutput: head.maxOutputTokens, count: () => countRequestTokens(request.full()), countable: () => body.restore() }
  if (size > EXACT_ESTIMATE_BYTES && body.mediaWords() === 0) return { ...base, input: size, exact: false }
  const cut = size > EXACT_ESTIMATE_BYTES ? request.spliced() : undefined
  if (cut) {
    let textCut = false
    const bound = requestBytesBound(cut.value, (text) => {
      textCut ||= isSpliced(text)
      return cut.body.bytesOf(text)
    })
    if (bound > EXACT_ESTIMATE_BYTES) return { ...base, input: bound, exact: false }
    // only media data was cut (the tokenizer never reads it): the texts are whole, count them
    if (!textCut) return { ...base, input: countRequestTokens(cut.value), exact: true }
  }
  const { tokens, exact } = estimateRequestTokens(request.full(), size)
  return { ...base, input: tokens, exact }
}
