import { describe, expect, test } from 'bun:test'
import { collect } from '../../../src/ir/index.ts'
import { anthropic } from '../../../src/protocols/anthropic/index.ts'
import { unwrapSignature } from '../../../src/protocols/envelope.ts'
import { decodeAll, encodeAll, toolScript, USAGE } from '../helpers.ts'

const frame = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`

describe('anthropic stream encoder', () => {
  test('exact framing: message_start, blocks with correct indexes, signature_delta, tool_use, message_delta, message_stop', () => {
    const frames = encodeAll(anthropic, toolScript(), { model: 'claude-sonnet-4-5' })
    expect(frames).toEqual([
      frame('message_start', {
        type: 'message_start',
        message: {
          id: 'msg_abc',
          type: 'message',
          role: 'assistant',
          model: 'claude-sonnet-4-5',
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 0 },
        },
      }),
      frame('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } }),
      frame('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'Let me ' } }),
      frame('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'think.' } }),
      frame('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'sig-1' } }),
      frame('content_block_stop', { type: 'content_block_stop', index: 0 }),
      frame('content_block_start', { type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } }),
      frame('content_block_delta', { type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'Running ' } }),
      frame('content_block_delta', { type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'tools.' } }),
      frame('content_block_stop', { type: 'content_block_stop', index: 1 }),
      frame('content_block_start', { type: 'content_block_start', index: 2, content_block: { type: 'tool_use', id: 'call_a', name: 'Bash', input: {} } }),
      frame('content_block_delta', { type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: '{"command":' } }),
      frame('content_block_delta', { type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: '"ls"}' } }),
      frame('content_block_stop', { type: 'content_block_stop', index: 2 }),
      // the second call's buffered delta is released when the first call ends
      frame('content_block_start', { type: 'content_block_start', index: 3, content_block: { type: 'tool_use', id: 'call_b', name: 'Read', input: {} } }),
      frame('content_block_delta', { type: 'content_block_delta', index: 3, delta: { type: 'input_json_delta', partial_json: '{"file_path":"/x"}' } }),
      frame('content_block_stop', { type: 'content_block_stop', index: 3 }),
      frame('message_delta', {
        type: 'message_delta',
        delta: { stop_reason: 'tool_use', stop_sequence: null },
        usage: { input_tokens: 100, cache_creation_input_tokens: 10, cache_read_input_tokens: 50, output_tokens: 42, output_tokens_details: { thinking_tokens: 12 } },
      }),
      frame('message_stop', { type: 'message_stop' }),
    ])
  })

  test('every frame has an event line; no empty text block; stop reasons', () => {
    const frames = encodeAll(anthropic, [
      { type: 'start', id: 'x', model: 'm' },
      { type: 'text-start', id: 'a' },
      { type: 'text-delta', id: 'a', delta: '' },
      { type: 'text-end', id: 'a' },
      { type: 'text-start', id: 'b' },
      { type: 'text-delta', id: 'b', delta: 'hi' },
      { type: 'text-end', id: 'b' },
      { type: 'finish', reason: { unified: 'length' } },
    ])
    for (const f of frames) expect(f).toMatch(/^event: [a-z_]+\ndata: \{.*\}\n\n$/)
    const starts = frames.filter((f) => f.startsWith('event: content_block_start'))
    expect(starts.length).toBe(1)
    expect(starts[0]).toContain('"index":0')
    expect(frames.at(-2)).toContain('"stop_reason":"max_tokens"')
    const stop = encodeAll(anthropic, [{ type: 'start', id: 'x', model: 'm' }, { type: 'finish', reason: { unified: 'stop', raw: 'stop_sequence', stopSequence: 'END' } }])
    expect(stop.at(-2)).toContain('"stop_reason":"stop_sequence","stop_sequence":"END"')
    const end = encodeAll(anthropic, [{ type: 'start', id: 'x', model: 'm' }, { type: 'finish', reason: { unified: 'stop', raw: 'stop' } }])
    expect(end.at(-2)).toContain('"stop_reason":"end_turn"')
  })

  test('reasoning from another protocol gets an envelope signature that decodes back', () => {
    const frames = encodeAll(anthropic, toolScript({ encrypted: 'gAAAA-enc', origin: 'openai-responses' }))
    const sigFrame = frames.find((f) => f.includes('signature_delta'))!
    const sig = JSON.parse(sigFrame.split('data: ')[1]!).delta.signature as string
    expect(unwrapSignature(sig)).toEqual({ origin: 'openai-responses', encrypted: 'gAAAA-enc' })
    // and the client sending that block back decodes to openai-responses reasoning
    const { value } = anthropic.decodeRequest({
      model: 'm',
      max_tokens: 10,
      messages: [
        { role: 'user', content: 'q' },
        { role: 'assistant', content: [{ type: 'thinking', thinking: 'Let me think.', signature: sig }, { type: 'text', text: 'a' }] },
      ],
    })
    const a = value.messages[1]!
    expect(a.role === 'assistant' && a.content[0]).toEqual({ type: 'reasoning', text: 'Let me think.', origin: 'openai-responses', encrypted: 'gAAAA-enc' })
  })

  test('in-stream error is an event: error frame', () => {
    const frames = encodeAll(anthropic, [{ type: 'start', id: 'x', model: 'm' }, { type: 'error', error: { status: 529, message: 'busy' } }])
    expect(frames.at(-1)).toBe(frame('error', { type: 'error', error: { type: 'overloaded_error', message: 'busy' } }))
  })
})

describe('anthropic stream decoder', () => {
  const upstream =
    frame('message_start', { type: 'message_start', message: { id: 'msg_1', model: 'claude', usage: { input_tokens: 5, cache_read_input_tokens: 100, cache_creation_input_tokens: 7, output_tokens: 1 } } }) +
    frame('ping', { type: 'ping' }) +
    frame('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '' } }) +
    frame('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'hmm' } }) +
    frame('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'SIG' } }) +
    frame('content_block_stop', { type: 'content_block_stop', index: 0 }) +
    frame('content_block_start', { type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } }) +
    frame('content_block_delta', { type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'Hi' } }) +
    frame('content_block_stop', { type: 'content_block_stop', index: 1 }) +
    frame('content_block_start', { type: 'content_block_start', index: 2, content_block: { type: 'tool_use', id: 'toolu_1', name: 'Bash', input: {} } }) +
    frame('content_block_delta', { type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: '{"command":"ls"}' } }) +
    frame('content_block_stop', { type: 'content_block_stop', index: 2 }) +
    frame('message_delta', { type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 42 } }) +
    frame('message_stop', { type: 'message_stop' })

  test('decodes to IR and collects; usage keeps message_start input counts', () => {
    const res = collect(decodeAll(anthropic, upstream))
    expect(res).toEqual({
      id: 'msg_1',
      model: 'claude',
      parts: [
        { type: 'reasoning', text: 'hmm', signature: 'SIG', origin: 'anthropic' },
        { type: 'text', text: 'Hi' },
        { type: 'tool-call', id: 'toolu_1', name: 'Bash', arguments: '{"command":"ls"}' },
      ],
      finish: { unified: 'tool_calls', raw: 'tool_use' },
      usage: { input: { noCache: 5, cacheRead: 100, cacheWrite: 7 }, output: { text: 42, reasoning: 0 } },
    })
  })

  test('usage tap reads the same usage without decoding blocks', () => {
    const tap = anthropic.createUsageTap()
    for (const line of upstream.split('\n\n').filter(Boolean)) {
      const [ev, data] = line.split('\n')
      tap.push({ event: ev!.slice(7), data: data!.slice(6) })
    }
    expect(tap.usage()).toEqual({ input: { noCache: 5, cacheRead: 100, cacheWrite: 7 }, output: { text: 42, reasoning: 0 } })
  })

  test('decode → encode is stable (anthropic to anthropic)', () => {
    const frames = encodeAll(anthropic, decodeAll(anthropic, upstream))
    const again = collect(decodeAll(anthropic, frames.join('')))
    expect(again.parts).toEqual(collect(decodeAll(anthropic, upstream)).parts)
    expect(again.usage).toEqual({ input: { noCache: 5, cacheRead: 100, cacheWrite: 7 }, output: { text: 42, reasoning: 0 } })
  })

  test('a stream cut before message_stop ends with an error event', () => {
    const cut = upstream.slice(0, upstream.indexOf('event: message_delta'))
    const evs = decodeAll(anthropic, cut)
    expect(evs.at(-1)).toEqual({ type: 'error', error: { status: 502, code: 'upstream_incomplete', message: 'upstream stream ended before message_stop' } })
  })

  test('USAGE constant maps to anthropic usage with thinking tokens split out', () => {
    const { value } = anthropic.encodeResponse({ id: 'msg_z', model: 'm', parts: [{ type: 'text', text: 'x' }], finish: { unified: 'stop' }, usage: USAGE })
    expect(value.usage).toEqual({ input_tokens: 100, cache_creation_input_tokens: 10, cache_read_input_tokens: 50, output_tokens: 42, output_tokens_details: { thinking_tokens: 12 } })
  })
})

describe('anthropic message_start usage', () => {
  test('input usage reported right after start lands in message_start', () => {
    const frames = encodeAll(anthropic, [
      { type: 'start', id: 'msg_q', model: 'm' },
      { type: 'usage', usage: { input: { noCache: 9, cacheRead: 3, cacheWrite: 1 }, output: { text: 0, reasoning: 0 } } },
      { type: 'text-start', id: 't' },
      { type: 'text-delta', id: 't', delta: 'x' },
      { type: 'text-end', id: 't' },
      { type: 'finish', reason: { unified: 'stop' } },
    ])
    expect(frames[0]).toContain('"usage":{"input_tokens":9,"cache_creation_input_tokens":1,"cache_read_input_tokens":3,"output_tokens":0}')
    expect(frames[1]).toStartWith('event: content_block_start')
  })
})
