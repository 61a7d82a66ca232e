import { isSpliced, type IrRequest } from '../../ir'
import type { PriceChoices } from '../../protocols/types'
import type { ChatRequest } from '../chat/request'
import { cacheWritesIn } from './cache-marks'
import type { Meter } from './meter'
import { referencedInBytes, referencedInIr } from './referenced-input'
import type { RequestBody } from '../body/request-body'
import { countRequestTokens, EXACT_ESTIMATE_BYTES, estimateRequestTokens, hasMedia, requestBytesBound } from './tokenize'

/**
 * A chat request's meter: its prompt tokens plus its output cap. A body without images or files reserves an
 * upper bound: its byte count (a byte-level BPE token is never shorter than a byte, and JSON's quotes and keys
 * only add bytes), so nothing is tokenized before dispatch (a 23 KB Claude Code turn took 0.14–0.29 ms); the
 * reservation counts exactly only when the bound does not fit (metering/reserve.ts), and settlement bills the
 * upstream's usage. A body with images or files (a flat estimate each, which their bytes may not cover) is
 * counted exactly when short; a long one is bounded by its texts, read with its long strings cut (their bytes
 * in the body bound them; spliced-body.ts) where it can be, else decoded whole. `count()` is exact, on demand.
 * `choices` are what the client chose that changes the price (n, service tier, hosted tools, betas: metering prices them).
 * Input it names but does not hold (referenced-input.ts) is listed in `byReference`: metering reserves the context window.
 */
export function chatMeter(request: ChatRequest, body: RequestBody, choices: PriceChoices = {}): Meter {
  const { head } = request
  const size = body.size
  // a body parsed whole is decoded already (`head` is all of it); a scanned one counted its media words (and item references)
  const media = body.whole ? hasMedia(head) : body.mediaWords() > 0
  // a file id is in a media part, or in one the decoder dropped with a warning (Anthropic's Files API sources): the
  // bytes are searched only then (~10 µs for a 23 KB turn, which most turns are spared)
  const inBytes = media || (body.whole && request.warnings.length > 0) ? referencedInBytes(body.bytes) : undefined
  // one object, finished by `referenced` (every request meters: no copy of it per step)
  const meter: Meter = { ...choices, model: head.model, stream: head.stream, unit: 'token' as const, maxOutput: head.maxOutputTokens ?? choices.maxOutput, count: () => countRequestTokens(request.full()), countable: () => body.restore(), cacheWrites: cacheWritesIn(body.bytes), input: size, exact: false }
  const referenced = (ir: IrRequest | undefined, input: number, exact: boolean): Meter => {
    const found = choices.byReference ? [...choices.byReference] : []
    if (inBytes) found.push(inBytes)
    if (ir) for (const what of referencedInIr(ir)) found.push(what)
    if (found.length) meter.byReference = found
    meter.input = input
    meter.exact = exact
    return meter
  }
  if (!media) return referenced(body.whole ? head : undefined, size, false)
  const cut = size > EXACT_ESTIMATE_BYTES ? request.spliced() : undefined
  if (cut) {
    let textCut = false
    const open = (data: string) => cut.body.base64Text(data)
    const bound = requestBytesBound(
      cut.value,
      (text) => {
        textCut ||= isSpliced(text)
        return cut.body.bytesOf(text)
      },
      open,
    )
    if (bound > EXACT_ESTIMATE_BYTES) return referenced(cut.value, bound, false)
    // only media data was cut (the tokenizer never reads it): the texts are whole, count them
    if (!textCut) return referenced(cut.value, countRequestTokens(cut.value, open), true)
  }
  const full = request.full()
  const { tokens, exact } = estimateRequestTokens(full, size)
  return referenced(full, tokens, exact)
}
