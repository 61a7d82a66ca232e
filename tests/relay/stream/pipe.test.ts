import { expect, test } from 'bun:test'
import { parseSseText, type SseEvent } from '../../../src/protocols/sse'
import { protocolFor } from '../../../src/relay/protocol-registry'
import { peekStream } from '../../../src/relay/stream/peek'
import { convertStream, passthroughStream, type StreamEnd } from '../../../src/relay/stream/pipe'

const chat = protocolFor('openai-chat')
const enc = new TextEncoder()
const chunk = (delta: object) => `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: null }] })}\n\n`
const usageChunk = `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', choices: [], usage: { prompt_tokens: 5, completion_tokens: 3, total_tokens: 8 } })}\n\n`
const words = ['Hel', 'lo', ' there']
const upstreamText = (withUsage: boolean) =>
  chunk({ role: 'assistant', content: '' }) + words.map((w) => chunk({ content: w })).join('') + (withUsage ? usageChunk : '') + 'data: [DONE]\n\n'
const isUsageOnly = (event: SseEvent) => event.data.includes('"usage"') && event.data.includes('"choices":[]')

function body(chunks: Uint8Array[], breakAtEnd = false): ReadableStream<Uint8Array> {
  let i = 0
  return new ReadableStream({
    pull(controller) {
      if (i < chunks.length) return controller.enqueue(chunks[i++]!)
      if (breakAtEnd) controller.error(new Error('connection reset'))
      else controller.close()
    },
  })
}

async function pass(chunks: Uint8Array[], opts: { drop?: boolean; breakAtEnd?: boolean } = {}): Promise<{ text: string; end: StreamEnd }> {
  const decoder = chat.createStreamDecoder()
  const peeked = await peekStream(body(chunks, opts.breakAtEnd), decoder)
  let end: StreamEnd | undefined
  const hooks = { abortUpstream() {}, idleMs: 60_000, onEnd: (e: StreamEnd) => (end = e) }
  const out = passthroughStream(peeked, chat.createUsageTap(), (m) => `data: {"error":${JSON.stringify(m)}}\n\n`, hooks, opts.drop ? isUsageOnly : undefined, decoder)
  const text = await new Response(out).text()
  return { text, end: end! }
}

test('dropping an event: at every split of the upstream bytes, every other event arrives once, in order', async () => {
  const bytes = enc.encode(upstreamText(true))
  const expected = parseSseText(upstreamText(false)).map((e) => e.data)
  for (let i = 1; i < bytes.length; i++) {
    for (const j of [i + 1, i + 37, bytes.length]) {
      const chunks = [bytes.slice(0, i), bytes.slice(i, j), bytes.slice(j)].filter((c) => c.byteLength > 0)
      const { text } = await pass(chunks, { drop: true })
      expect(parseSseText(text).map((e) => e.data)).toEqual(expected)
    }
  }
})

test('dropping an event: chunks that hold whole events and none to drop go out as they came', async () => {
  const frames = [chunk({ role: 'assistant', content: 'a' }), ': keep-alive\n\n' + chunk({ content: 'b' }), chunk({ content: 'c' }), usageChunk + 'data: [DONE]\n\n']
  const { text } = await pass(frames.map((f) => enc.encode(f)), { drop: true })
  expect(text).toBe(frames.slice(0, 3).join('') + 'data: [DONE]\n\n') // the comment a re-framing would lose is still there
})

test('produced text: not decoded when the upstream reports usage, kept when it does not or the stream is cut', async () => {
  const split = (text: string) => [...text.matchAll(/data: [^\n]*\n\n/g)].map((m) => enc.encode(m[0]))
  const reported = await pass(split(upstreamText(true)))
  expect(reported.end.usage).toBeDefined()
  expect(reported.end.output).toBeUndefined()
  const unreported = await pass(split(upstreamText(false)))
  expect(unreported.end.usage).toBeUndefined()
  expect(unreported.end.output).toBe(words.join(''))
  const whole = await pass([enc.encode(upstreamText(false))]) // the whole answer in the peek's one chunk
  expect(whole.end.output).toBe(words.join(''))
  const cut = await pass(split(upstreamText(true)).slice(0, 3), { breakAtEnd: true })
  expect(cut.end.error).toContain('connection reset')
  expect(cut.end.output).toBe('Hello')
})

test('produced text of a long stream (held events decoded in batches) is complete and in order', async () => {
  const many = Array.from({ length: 3000 }, (_, i) => `w${i} `)
  const text = chunk({ role: 'assistant', content: '' }) + many.map((w) => chunk({ content: w })).join('') + 'data: [DONE]\n\n'
  const { end } = await pass([enc.encode(text)].flatMap((b) => Array.from({ length: Math.ceil(b.length / 1000) }, (_, i) => b.slice(i * 1000, (i + 1) * 1000))))
  expect(end.output).toBe(many.join(''))
})

test('conversion of an answer that arrives in one chunk: every event after the first content is still converted', async () => {
  const decoder = chat.createStreamDecoder()
  const peeked = await peekStream(body([enc.encode(upstreamText(true))]), decoder)
  let end: StreamEnd | undefined
  const request = protocolFor('anthropic').decodeRequest({ model: 'm', max_tokens: 10, stream: true, messages: [{ role: 'user', content: 'hi' }] }).value
  const out = convertStream(peeked, decoder, protocolFor('anthropic').createStreamEncoder({ request, model: 'm' }), { abortUpstream() {}, idleMs: 60_000, onEnd: (e) => (end = e) })
  const events = parseSseText(await new Response(out).text())
  const text = events.filter((e) => e.event === 'content_block_delta').map((e) => JSON.parse(e.data).delta.text).join('')
  expect(text).toBe(words.join(''))
  expect(events.at(-1)!.event).toBe('message_stop')
  expect(end!.usage?.output.text).toBe(3)
})
