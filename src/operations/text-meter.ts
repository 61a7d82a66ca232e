import type { Meter } from '../relay/meter/meter'
import { countTextTokens, EXACT_ESTIMATE_BYTES } from '../relay/meter/tokenize'

/**
 * Input tokens of texts (embeddings, rerank, moderation inputs): counted when they are short, else one token
 * per UTF-8 byte as a bound that `count()` replaces when the bound does not fit the balance.
 */
export function textsMeter(model: string, texts: readonly string[], extraTokens = 0): Meter {
  const count = () => texts.reduce((n, text) => n + countTextTokens(text), extraTokens)
  const bytes = texts.reduce((n, text) => n + Buffer.byteLength(text), extraTokens)
  if (bytes <= EXACT_ESTIMATE_BYTES) {
    const exact = count()
    return { model, stream: false, unit: 'token', input: exact, exact: true, maxOutput: 0, count: () => exact }
  }
  return { model, stream: false, unit: 'token', input: bytes, exact: false, maxOutput: 0, count }
}
