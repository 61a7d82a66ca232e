import { describe, expect, test } from 'bun:test'
import { EventStreamCodec, Int64, type MessageHeaders } from '@smithy/eventstream-codec'
import {
  AwsEventStreamParser,
  EventStreamDecoder,
  encodeEventStreamMessage,
  eventFrame,
  exceptionFrame,
  toSseEvent,
  type EventStreamMessage,
} from '../../../src/protocols/framing/aws-event-stream.ts'

// The AWS SDK's own codec, as the independent implementation to agree with.
const smithy = new EventStreamCodec(
  (b: Uint8Array) => new TextDecoder().decode(b),
  (s: string) => new TextEncoder().encode(s),
)
const enc = new TextEncoder()
const text = (b: Uint8Array) => new TextDecoder().decode(b)
const join = (parts: Uint8Array[]) => new Uint8Array(Buffer.concat(parts))

function decodeChunks(chunks: Uint8Array[]): { messages: EventStreamMessage[]; decoder: EventStreamDecoder } {
  const decoder = new EventStreamDecoder()
  const messages: EventStreamMessage[] = []
  for (const c of chunks) messages.push(...decoder.push(c))
  messages.push(...decoder.end())
  return { messages, decoder }
}

const readable = (ms: EventStreamMessage[]) => ms.map((m) => ({ headers: m.headers, payload: text(m.payload) }))

describe('AWS event-stream decoding', () => {
  test('a frame recorded from the AWS SDK codec (string, boolean and long headers)', () => {
    const recorded = Buffer.from('0000003c000000254af75ea90b3a6576656e742d747970650700056368756e6b04666c616700016e05fffffffffffffffb7b2261223a317d14dea22f', 'hex')
    const { messages, decoder } = decodeChunks([recorded])
    expect(decoder.invalid).toBeUndefined()
    expect(readable(messages)).toEqual([{ headers: { ':event-type': 'chunk', flag: 'true', n: '-5' }, payload: '{"a":1}' }])
  })

  test('every header type the SDK can write', () => {
    const headers: MessageHeaders = {
      t: { type: 'boolean', value: true },
      f: { type: 'boolean', value: false },
      b: { type: 'byte', value: -7 },
      s: { type: 'short', value: 30000 },
      i: { type: 'integer', value: -123456 },
      l: { type: 'long', value: Int64.fromNumber(9007199254740991) },
      bin: { type: 'binary', value: new Uint8Array([0, 255, 16]) },
      str: { type: 'string', value: 'héllo → 世界' },
      ts: { type: 'timestamp', value: new Date('2025-07-01T12:34:56.789Z') },
      id: { type: 'uuid', value: '0123abcd-4567-89ef-0123-456789abcdef' },
    }
    const { messages } = decodeChunks([smithy.encode({ headers, body: enc.encode('payload') })])
    expect(messages[0]!.headers).toEqual({
      t: 'true',
      f: 'false',
      b: '-7',
      s: '30000',
      i: '-123456',
      l: '9007199254740991',
      bin: 'AP8Q',
      str: 'héllo → 世界',
      ts: '2025-07-01T12:34:56.789Z',
      id: '0123abcd-4567-89ef-0123-456789abcdef',
    })
  })

  test('our encoder writes the same bytes as the SDK, and the SDK reads them back', () => {
    const headers = { ':event-type': 'contentBlockDelta', ':content-type': 'application/json', ':message-type': 'event' }
    const payload = '{"contentBlockIndex":0,"delta":{"text":"Hi 🎉"}}'
    const ours = encodeEventStreamMessage(headers, payload)
    const theirs = smithy.encode({ headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, { type: 'string', value: v }])) as MessageHeaders, body: enc.encode(payload) })
    expect(Buffer.from(ours).toString('hex')).toBe(Buffer.from(theirs).toString('hex'))
    const back = smithy.decode(ours)
    expect(text(back.body)).toBe(payload)
    expect(back.headers[':event-type']).toEqual({ type: 'string', value: 'contentBlockDelta' })
    expect(eventFrame('contentBlockDelta', JSON.parse(payload))).toEqual(ours)
  })

  const stream = join([
    eventFrame('messageStart', { role: 'assistant' }),
    eventFrame('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'héllo → 世界 🎉' } }),
    encodeEventStreamMessage({ ':event-type': 'empty', ':message-type': 'event' }, ''),
    eventFrame('messageStop', { stopReason: 'end_turn' }),
  ])
  const whole = readable(decodeChunks([stream]).messages)

  test('every split point, and byte by byte, gives the same messages', () => {
    expect(whole.map((m) => m.headers[':event-type'])).toEqual(['messageStart', 'contentBlockDelta', 'empty', 'messageStop'])
    for (let i = 0; i <= stream.length; i++) {
      const { messages, decoder } = decodeChunks([stream.subarray(0, i), stream.subarray(i)])
      expect(decoder.invalid).toBeUndefined()
      expect(readable(messages)).toEqual(whole)
    }
    for (let i = 1; i < stream.length; i += 7)
      for (let j = i; j < stream.length; j += 11) expect(readable(decodeChunks([stream.subarray(0, i), stream.subarray(i, j), stream.subarray(j)]).messages)).toEqual(whole)
    const bytes = Array.from(stream, (b) => new Uint8Array([b]))
    expect(readable(decodeChunks(bytes).messages)).toEqual(whole)
  })

  test('idle() is true only between messages', () => {
    const d = new EventStreamDecoder()
    const first = eventFrame('a', {})
    expect(d.idle()).toBe(true)
    d.push(first.subarray(0, 5))
    expect(d.idle()).toBe(false)
    expect(d.push(first.subarray(5)).length).toBe(1)
    expect(d.idle()).toBe(true)
  })

  test('corrupted CRCs and lengths are refused; the messages before them are kept, nothing after', () => {
    const firstLength = eventFrame('messageStart', { role: 'assistant' }).length
    const flip = (at: number) => {
      const copy = new Uint8Array(stream)
      copy[at] = copy[at]! ^ 0x01
      return copy
    }
    const cases: [string, Uint8Array, string][] = [
      ['prelude CRC', flip(firstLength + 9), 'prelude CRC mismatch'],
      ['total length', flip(firstLength + 3), 'prelude CRC mismatch'],
      ['payload byte', flip(firstLength + 40), 'message CRC mismatch'],
      ['message CRC', flip(firstLength + eventFrame('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'héllo → 世界 🎉' } }).length - 1), 'message CRC mismatch'],
    ]
    for (const [, bytes, why] of cases) {
      for (const split of [bytes.length, firstLength + 20]) {
        const { messages, decoder } = decodeChunks([bytes.subarray(0, split), bytes.subarray(split)])
        expect(decoder.invalid).toBe(`AWS event stream: ${why}`)
        expect(decoder.invalidAt).toBe(1)
        expect(readable(messages)).toEqual(whole.slice(0, 1))
      }
      expect(() => smithy.decode(bytes.subarray(firstLength))).toThrow()
    }
    // a prelude whose CRC is right but whose lengths are impossible
    const tooShort = new Uint8Array(12)
    new DataView(tooShort.buffer).setUint32(0, 8)
    new DataView(tooShort.buffer).setUint32(8, Bun.hash.crc32(tooShort.subarray(0, 8)))
    expect(decodeChunks([tooShort]).decoder.invalid).toBe('AWS event stream: message length 8 out of range')
  })

  test('a stream cut inside a message is reported at end()', () => {
    const { messages, decoder } = decodeChunks([stream.subarray(0, stream.length - 3)])
    expect(messages.length).toBe(3)
    expect(decoder.invalid).toMatch(/^AWS event stream: the stream ended inside a message/)
  })
})

describe('event-stream messages as SSE-shaped events', () => {
  test('events, exceptions and errors', () => {
    const p = new AwsEventStreamParser()
    const events = p.push(
      join([
        eventFrame('metadata', { usage: { inputTokens: 3 } }),
        exceptionFrame('throttlingException', 'Too many requests, please wait before trying again.'),
        encodeEventStreamMessage({ ':message-type': 'error', ':error-code': 'InternalFailure', ':error-message': 'boom' }, ''),
      ]),
    )
    expect(events).toEqual([
      { event: 'metadata', data: '{"usage":{"inputTokens":3}}' },
      { event: 'throttlingException', data: '{"message":"Too many requests, please wait before trying again."}', exception: true },
      { event: 'InternalFailure', data: '{"message":"boom"}', exception: true },
    ])
    expect(p.dispatched).toBe(3)
    expect(p.end()).toEqual([])
    expect(p.invalid).toBeUndefined()
    expect(toSseEvent({ headers: {}, payload: enc.encode('x') })).toEqual({ event: 'message', data: 'x' })
  })
})
