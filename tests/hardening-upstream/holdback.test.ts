/**
 * Passthrough sends the upstream's bytes unchanged, but only up to the last whole event: at any split of the
 * upstream bytes the client gets exactly those bytes, and garbage found anywhere after the first content never
 * reaches it, whatever the chunk boundaries.
 */
import { expect, test } from 'bun:test'
import { parseSseText } from '../../src/protocols/sse'
import { protocolFor } from '../../src/relay/protocol-registry'
import { peekStream } from '../../src/relay/stream/peek'
import { lastBoundary } from '../../src/relay/stream/holdback'
import { passthroughStream, type StreamEnd } from '../../src/relay/stream/pipe'

const anthropic = protocolFor('anthropic')
const enc = new TextEncoder()
const ev = (type: string, data: object, eol = '\n') => `event: ${type}${eol}data: ${JSON.stringify({ type, ...data })}${eol}${eol}`
const upstream = (eol = '\n') =>
  ev('message_start', { message: { id: 'm', type: 'message', role: 'assistant', model: 'x', content: [], usage: { input_tokens: 5, output_tokens: 1 } } }, eol) +
  ev('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }, eol) +
  `: a comment${eol}` +
  ev('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'héllo ' } }, eol) +
  ev('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'wörld' } }, eol) +
  ev('content_block_stop', { index: 0 }, eol) +
  ev('message_delta', { delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 3 } }, eol) +
  ev('message_stop', {}, eol)

function body(chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  let i = 0
  return new ReadableStream({ pull: (c) => (i < chunks.length ? c.enqueue(chunks[i++]!) : c.close()) })
}

async function pass(chunks: Uint8Array[]): Promise<{ bytes: Uint8Array; outs: Uint8Array[]; end: StreamEnd }> {
  const decoder = anthropic.createStreamDecoder()
  const peeked = await peekStream(body(chunks), decoder)
  let end: StreamEnd | undefined
  const hooks = { abortUpstream() {}, idleMs: 60_000, onEnd: (e: StreamEnd) => (end = e) }
  const stream = passthroughStream(peeked, anthropic.createUsageTap(), (m) => anthropic.renderStreamError({ status: 502, message: m }), hooks, undefined, decoder)
  const outs: Uint8Array[] = []
  const reader = stream.getReader()
  for (let r = await reader.read(); !r.done; r = await reader.read()) outs.push(r.value)
  return { bytes: Buffer.concat(outs), outs, end: end! }
}

const splits = (bytes: Uint8Array) => {
  const out: Uint8Array[][] = []
  for (let i = 1; i < bytes.length; i += 3) for (const j of [i + 1, i + 29, bytes.length]) out.push([bytes.slice(0, i), bytes.slice(i, j), bytes.slice(j)].filter((c) => c.byteLength > 0))
  return out
}

for (const [name, eol] of [['LF', '\n'], ['CRLF', '\r\n'], ['CR', '\r']] as const) {
  test(`${name} line ends: at every split the client gets the upstream's bytes unchanged`, async () => {
    const bytes = enc.encode(upstream(eol))
    for (const chunks of splits(bytes)) {
      const { bytes: got, outs, end } = await pass(chunks)
      expect(Buffer.from(got).equals(Buffer.from(bytes))).toBe(true)
      expect(end.error).toBeUndefined()
      // what went out ends on an event boundary (a blank line); a held tail goes out, unchanged, just ahead of the rest
      const last = outs.at(-1)!
      expect(lastBoundary(last, -1, -1)).toBe(last.byteLength)
    }
  })
}

test('garbage after the first content, at every split: the events before it, then the error event, nothing else', async () => {
  const text = upstream()
  const at = text.indexOf('event: content_block_delta', text.indexOf('héllo')) // after the first delta
  const bytes = enc.encode(text.slice(0, at) + '<html>oops</html>\n' + text.slice(at))
  for (const chunks of splits(bytes)) {
    const { bytes: got, end } = await pass(chunks)
    const events = parseSseText(new TextDecoder().decode(got))
    expect(events.map((e) => e.event)).toEqual(['message_start', 'content_block_start', 'content_block_delta', 'error'])
    expect(JSON.parse(events.at(-1)!.data).error.message).toContain('not SSE')
    expect(end.error).toContain('not SSE')
    expect(end.output).toBe('héllo ')
  }
})

test('lastBoundary: blank lines of every line-end style, across the bytes before the chunk', () => {
  const b = (s: string) => enc.encode(s)
  const START = -1
  expect(lastBoundary(b('data: 1\n\ndata: 2'), START, START)).toBe(9)
  expect(lastBoundary(b('data: 1\r\n\r\ndata: 2\r\n'), START, START)).toBe(11)
  expect(lastBoundary(b('data: 1\r\rdata'), START, START)).toBe(9)
  expect(lastBoundary(b('data: 1\n'), START, START)).toBe(0)
  expect(lastBoundary(b('\n'), 10, 49)).toBe(1) // "…1\n" + "\n"
  expect(lastBoundary(b('\n'), 13, 49)).toBe(0) // "…1\r" + "\n" is one line end
  expect(lastBoundary(b('\r\n'), 13, 10)).toBe(2) // "…\n\r" + "\r\n": one more blank line
  expect(lastBoundary(b('\n'), START, START)).toBe(1) // a blank line right after a boundary
})
