import { expect, test } from 'bun:test'
import { protocolFor } from '../../../src/relay/protocol-registry'
import { countRequestTokens, countTextTokens, estimateRequestTokens, EXACT_ESTIMATE_BYTES } from '../../../src/relay/meter/tokenize'

const irOf = (content: string) =>
  protocolFor('openai-chat').decodeRequest({ model: 'm', messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content }] }).value

test('a short prompt is tokenized exactly for the reservation', () => {
  const ir = irOf('Say hello in a few words.')
  expect(estimateRequestTokens(ir)).toEqual({ tokens: countRequestTokens(ir), exact: true })
})

test('a long prompt reserves an upper bound (its UTF-8 bytes) without tokenizing', () => {
  for (const text of ['The quick brown fox jumps over the lazy dog. ', 'é中文🙂 ', 'a1B2c3~!@#$%^&*()_+ ']) {
    const ir = irOf(text.repeat(Math.ceil((EXACT_ESTIMATE_BYTES * 2) / text.length)))
    const estimate = estimateRequestTokens(ir)
    expect(estimate.exact).toBe(false)
    expect(estimate.tokens).toBeGreaterThanOrEqual(countRequestTokens(ir))
  }
})

test('a body within the exact limit is tokenized without the byte bound; a larger one still gets its texts weighed', () => {
  const short = irOf('Say hello in a few words.')
  expect(estimateRequestTokens(short, 200)).toEqual({ tokens: countRequestTokens(short), exact: true })
  // a body over the limit whose texts are short (a big image, say) is still counted exactly
  expect(estimateRequestTokens(short, EXACT_ESTIMATE_BYTES * 4)).toEqual({ tokens: countRequestTokens(short), exact: true })
  const long = irOf('The quick brown fox jumps over the lazy dog. '.repeat(Math.ceil((EXACT_ESTIMATE_BYTES * 2) / 45)))
  expect(estimateRequestTokens(long, EXACT_ESTIMATE_BYTES * 3).exact).toBe(false)
})

test('a text counted again (remembered) gives the tokenizer count', () => {
  const text = 'You are a careful assistant. Answer in one short paragraph, then list sources. '.repeat(20)
  const ir = irOf(text)
  const first = countRequestTokens(ir)
  expect(countRequestTokens(irOf(text))).toBe(first)
  expect(first).toBe(countTextTokens('Be brief.') + countTextTokens(text) + 2 * 3)
})
