import { describe, expect, test } from 'bun:test'
import { encodeSse, parseSseText, SseParser, sseData, sseEvent, type SseEvent } from '../../src/protocols/sse.ts'

const enc = new TextEncoder()

function parseChunks(chunks: Uint8Array[]): SseEvent[] {
  const p = new SseParser()
  const out: SseEvent[] = []
  for (const c of chunks) out.push(...p.push(c))
  out.push(...p.end())
  return out
}

describe('SseParser', () => {
  const text =
    ': comment line\r\n' +
    'event: message_start\r\n' +
    'data: {"type":"message_start","text":"héllo → 世界 🎉"}\r\n' +
    '\r\n' +
    'event: content_block_delta\n' +
    'data: {"a":1}\n' +
    'data: {"b":2}\n' +
    '\n' +
    'data:no-space\r' +
    '\r' +
    'id: 42\n' +
    'retry: 1500\n' +
    'data:  two spaces\n' +
    '\n' +
    'event: ping\n' +
    '\n' +
    'data: [DONE]\n\n'
  const expected: SseEvent[] = [
    { event: 'message_start', data: '{"type":"message_start","text":"héllo → 世界 🎉"}' },
    { event: 'content_block_delta', data: '{"a":1}\n{"b":2}' },
    { data: 'no-space' },
    { data: ' two spaces', id: '42', retry: 1500 },
    { data: '[DONE]' },
  ]
  const bytes = enc.encode(text)

  test('parses a whole buffer', () => {
    expect(parseChunks([bytes])).toEqual(expected)
    expect(parseSseText(text)).toEqual(expected)
  })

  test('every single split point gives the same events (incl. inside UTF-8 sequences and \\r\\n)', () => {
    for (let i = 0; i <= bytes.length; i++) {
      const got = parseChunks([bytes.slice(0, i), bytes.slice(i)])
      expect(got).toEqual(expected)
    }
  })

  test('every pair of split points gives the same events', () => {
    for (let i = 0; i <= bytes.length; i += 3) {
      for (let j = i; j <= bytes.length; j += 5) {
        expect(parseChunks([bytes.slice(0, i), bytes.slice(i, j), bytes.slice(j)])).toEqual(expected)
      }
    }
  })

  test('byte-by-byte feeding', () => {
    const chunks: Uint8Array[] = []
    for (let i = 0; i < bytes.length; i++) chunks.push(bytes.slice(i, i + 1))
    expect(parseChunks(chunks)).toEqual(expected)
  })

  test('events are emitted as soon as their blank line arrives (no waiting for the next chunk)', () => {
    const p = new SseParser()
    expect(p.push(enc.encode('event: a\r\ndata: 1\r\n\r'))).toEqual([{ event: 'a', data: '1' }])
    // the trailing \n of the \r\n pair must not create an extra blank line / event
    expect(p.push(enc.encode('\ndata: 2\n'))).toEqual([])
    expect(p.push(enc.encode('\n'))).toEqual([{ data: '2' }])
  })

  test('a final event without a blank line is dispatched at end(); a BOM is ignored', () => {
    const p = new SseParser()
    expect(p.push('\uFEFFdata: x')).toEqual([])
    expect(p.end()).toEqual([{ data: 'x' }])
  })

  test('field without colon and empty data', () => {
    expect(parseSseText('data\n\ndata:\n\n')).toEqual([{ data: '' }, { data: '' }])
  })
})

describe('SSE encoder', () => {
  test('frames', () => {
    expect(sseEvent('ping', { type: 'ping' })).toBe('event: ping\ndata: {"type":"ping"}\n\n')
    expect(sseData({ a: 1 })).toBe('data: {"a":1}\n\n')
    expect(encodeSse({ event: 'x', data: 'line1\nline2' })).toBe('event: x\ndata: line1\ndata: line2\n\n')
  })

  test('encode → parse round trip', () => {
    const frames = [encodeSse({ event: 'e1', data: 'a\nb' }), encodeSse({ data: '{"x":"ü"}', id: '7' })].join('')
    expect(parseSseText(frames)).toEqual([{ event: 'e1', data: 'a\nb' }, { data: '{"x":"ü"}', id: '7' }])
  })
})

test('idle() is true only between events', () => {
  const p = new SseParser()
  expect(p.idle()).toBe(true)
  for (const [chunk, idle] of [['data: a', false], ['\n', false], ['\n', true], ['event: x\n', false], ['data: b\n\n', true], [': comment\n', true], ['data: c\r', false], ['\n\r\n', true]] as const) {
    p.push(chunk)
    expect([chunk, p.idle()]).toEqual([chunk, idle])
  }
})
