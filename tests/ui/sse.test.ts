import { describe, expect, test } from 'bun:test'
import { createSseParser, type SseEvent } from '../../src/ui/lib/sse'

const encoder = new TextEncoder()

/** Feed `chunks` one by one, then end: every event in order. */
function parse(chunks: readonly (string | Uint8Array)[]): SseEvent[] {
  const parser = createSseParser()
  const events = chunks.flatMap((chunk) => parser.push(chunk))
  return [...events, ...parser.end()]
}

const datas = (events: SseEvent[]) => events.map((event) => event.data)

const STREAM = [
  ': keep-alive',
  'data: {"choices":[{"delta":{"content":"Hel"}}]}',
  '',
  'event: message',
  'data: {"choices":[{"delta":{"content":"lo — 你好 👋"}}]}',
  '',
  'data:{"usage":{"prompt_tokens":7}}',
  '',
  'data: [DONE]',
  '',
  '',
].join('\n')
const EXPECTED = ['{"choices":[{"delta":{"content":"Hel"}}]}', '{"choices":[{"delta":{"content":"lo — 你好 👋"}}]}', '{"usage":{"prompt_tokens":7}}', '[DONE]']

describe('SSE parser', () => {
  test('whole stream in one chunk', () => {
    expect(datas(parse([STREAM]))).toEqual(EXPECTED)
  })

  test('text split at every possible boundary gives the same events', () => {
    for (let cut = 0; cut <= STREAM.length; cut++) {
      expect(datas(parse([STREAM.slice(0, cut), STREAM.slice(cut)]))).toEqual(EXPECTED)
    }
  })

  test('one character at a time', () => {
    expect(datas(parse([...STREAM]))).toEqual(EXPECTED)
  })

  test('bytes split at every boundary, UTF-8 characters cut in half included', () => {
    const bytes = encoder.encode(STREAM)
    for (let cut = 0; cut <= bytes.length; cut++) {
      expect(datas(parse([bytes.slice(0, cut), bytes.slice(cut)]))).toEqual(EXPECTED)
    }
    expect(datas(parse([...bytes].map((byte) => Uint8Array.of(byte))))).toEqual(EXPECTED)
  })

  test('CRLF and lone CR line ends, CRLF split between chunks', () => {
    const crlf = STREAM.replaceAll('\n', '\r\n')
    expect(datas(parse([crlf]))).toEqual(EXPECTED)
    for (let cut = 0; cut <= crlf.length; cut++) expect(datas(parse([crlf.slice(0, cut), crlf.slice(cut)]))).toEqual(EXPECTED)
    expect(datas(parse([STREAM.replaceAll('\n', '\r')]))).toEqual(EXPECTED)
    // a CR closing a chunk is a line end even when no LF follows
    expect(datas(parse(['data: a\r', '\rdata: b\r\r']))).toEqual(['a', 'b'])
  })

  test('events are handed out as soon as their blank line arrives', () => {
    const parser = createSseParser()
    expect(parser.push('data: one\n')).toEqual([])
    expect(datas(parser.push('\ndata: tw'))).toEqual(['one'])
    expect(datas(parser.push('o\n\n'))).toEqual(['two'])
    expect(parser.end()).toEqual([])
  })

  test('multi-line data, event names, ids, comments, a leading BOM and an unterminated last event', () => {
    const events = parse(['\uFEFFid: 1\nevent: delta\ndata: a\ndata:  b\n\n: note\nretry: 10\nunknown: x\n\ndata\n\ndata: last'])
    expect(events).toEqual([
      { event: 'delta', data: 'a\n b', id: '1' },
      { event: 'message', data: '', id: '1' },
      { event: 'message', data: 'last', id: '1' },
    ])
  })

  test('blank lines without data dispatch nothing', () => {
    expect(parse(['\n\n\r\n: comment\n\nevent: x\n\n'])).toEqual([])
  })
})
