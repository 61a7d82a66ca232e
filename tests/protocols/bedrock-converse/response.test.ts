import { describe, expect, test } from 'bun:test'
import { collect, type StreamEvent } from '../../../src/ir/index.ts'
import { anthropic } from '../../../src/protocols/anthropic/index.ts'
import { bedrockConverse } from '../../../src/protocols/bedrock-converse/index.ts'
import { AwsEventStreamParser, eventFrame, exceptionFrame } from '../../../src/protocols/framing/aws-event-stream.ts'
import { parseSseText } from '../../../src/protocols/sse.ts'

/** Real event-stream bytes, split at every 37th byte, through the framing parser and the Converse decoder. */
function decodeFrames(frames: Uint8Array[]): StreamEvent[] {
  const bytes = new Uint8Array(Buffer.concat(frames))
  const parser = new AwsEventStreamParser()
  const dec = bedrockConverse.createStreamDecoder()
  const out: StreamEvent[] = []
  for (let i = 0; i < bytes.length; i += 37) for (const ev of parser.push(bytes.subarray(i, i + 37))) out.push(...dec.push(ev))
  expect(parser.end()).toEqual([])
  expect(parser.invalid).toBeUndefined()
  out.push(...dec.end())
  return out
}

const USAGE = { inputTokens: 12, outputTokens: 40, totalTokens: 1352, cacheReadInputTokens: 1200, cacheWriteInputTokens: 100 }
const IR_USAGE = { input: { noCache: 12, cacheRead: 1200, cacheWrite: 100 }, output: { text: 40, reasoning: 0 } }

const streamFrames = [
  eventFrame('messageStart', { role: 'assistant', p: 'abcdefgh' }),
  eventFrame('contentBlockDelta', { contentBlockIndex: 0, delta: { reasoningContent: { text: 'Let me ' } } }),
  eventFrame('contentBlockDelta', { contentBlockIndex: 0, delta: { reasoningContent: { text: 'think.' } } }),
  eventFrame('contentBlockDelta', { contentBlockIndex: 0, delta: { reasoningContent: { signature: 'EqQBCkYIBx' } } }),
  eventFrame('contentBlockStop', { contentBlockIndex: 0 }),
  eventFrame('contentBlockDelta', { contentBlockIndex: 1, delta: { text: 'Running ' } }),
  eventFrame('contentBlockDelta', { contentBlockIndex: 1, delta: { text: 'tools.' } }),
  eventFrame('contentBlockStop', { contentBlockIndex: 1 }),
  eventFrame('contentBlockStart', { contentBlockIndex: 2, start: { toolUse: { toolUseId: 'tooluse_A', name: 'Bash' } } }),
  eventFrame('contentBlockDelta', { contentBlockIndex: 2, delta: { toolUse: { input: '{"command":' } } }),
  eventFrame('contentBlockDelta', { contentBlockIndex: 2, delta: { toolUse: { input: '"ls"}' } } }),
  eventFrame('contentBlockStop', { contentBlockIndex: 2 }),
  eventFrame('contentBlockStart', { contentBlockIndex: 3, start: { toolUse: { toolUseId: 'tooluse_B', name: 'Read' } } }),
  eventFrame('contentBlockDelta', { contentBlockIndex: 3, delta: { toolUse: { input: '{"file_path":"/x"}' } } }),
  eventFrame('contentBlockStop', { contentBlockIndex: 3 }),
  eventFrame('messageStop', { stopReason: 'tool_use' }),
  eventFrame('metadata', { usage: USAGE, metrics: { latencyMs: 812 } }),
]

describe('bedrock converse stream', () => {
  test('reasoning with signature, text, parallel tool calls, stop reason, usage with cache', () => {
    const events = decodeFrames(streamFrames)
    expect(events[0]).toMatchObject({ type: 'start', model: '' })
    expect((events[0] as { id: string }).id).toStartWith('msg_bdrk_')
    expect(events.filter((e) => e.type === 'tool-input-start')).toEqual([
      { type: 'tool-input-start', id: 'tooluse_A', name: 'Bash', index: 0 },
      { type: 'tool-input-start', id: 'tooluse_B', name: 'Read', index: 1 },
    ])
    expect(events.at(-1)).toEqual({ type: 'finish', reason: { unified: 'tool_calls', raw: 'tool_use' }, usage: IR_USAGE })
    const res = collect(events)
    expect(res.parts).toEqual([
      { type: 'reasoning', text: 'Let me think.', signature: 'EqQBCkYIBx', origin: 'bedrock-converse' },
      { type: 'text', text: 'Running tools.' },
      { type: 'tool-call', id: 'tooluse_A', name: 'Bash', arguments: '{"command":"ls"}' },
      { type: 'tool-call', id: 'tooluse_B', name: 'Read', arguments: '{"file_path":"/x"}' },
    ])
    expect(res.usage).toEqual(IR_USAGE)
  })

  test('the signature survives an Anthropic client and comes back to Converse', () => {
    const res = collect(decodeFrames(streamFrames))
    const shown = anthropic.encodeResponse(res).value as { content: Record<string, unknown>[] }
    const thinking = shown.content[0]!
    expect(thinking.type).toBe('thinking')
    expect(thinking.signature).not.toBe('EqQBCkYIBx') // wrapped: a foreign signature never reaches Anthropic as its own
    const { value: next } = anthropic.decodeRequest({
      model: 'claude',
      max_tokens: 2000,
      tools: ['Bash', 'Read'].map((name) => ({ name, input_schema: { type: 'object' } })),
      messages: [
        { role: 'user', content: 'q' },
        { role: 'assistant', content: shown.content },
        { role: 'user', content: shown.content.slice(2).map((c) => ({ type: 'tool_result', tool_use_id: c.id, content: 'ok' })) },
      ],
    })
    const { value, warnings } = bedrockConverse.encodeRequest({ ...next, model: 'us.anthropic.claude-sonnet-4-5-20250929-v1:0' })
    expect(warnings).toEqual([])
    expect((value.messages as { content: unknown[] }[])[1]!.content).toEqual([
      { reasoningContent: { reasoningText: { text: 'Let me think.', signature: 'EqQBCkYIBx' } } },
      { text: 'Running tools.' },
      { toolUse: { toolUseId: 'tooluse_A', name: 'Bash', input: { command: 'ls' } } },
      { toolUse: { toolUseId: 'tooluse_B', name: 'Read', input: { file_path: '/x' } } },
    ])
  })

  test('redacted reasoning, stop sequence, and a stream without metadata still finishes', () => {
    const events = decodeFrames([
      eventFrame('messageStart', { role: 'assistant' }),
      eventFrame('contentBlockDelta', { contentBlockIndex: 0, delta: { reasoningContent: { redactedContent: 'UkVE' } } }),
      eventFrame('contentBlockStop', { contentBlockIndex: 0 }),
      eventFrame('contentBlockDelta', { contentBlockIndex: 1, delta: { text: 'x' } }),
      eventFrame('messageStop', { stopReason: 'stop_sequence', additionalModelResponseFields: { stop_sequence: 'END' } }),
    ])
    expect(collect(events).parts).toEqual([
      { type: 'reasoning', text: '', redacted: true, encrypted: 'UkVE', origin: 'bedrock-converse' },
      { type: 'text', text: 'x' },
    ])
    expect(events.at(-1)).toEqual({ type: 'finish', reason: { unified: 'stop', raw: 'stop_sequence', stopSequence: 'END' } })
  })

  test('stop reasons', () => {
    const finish = (stopReason: string) => collect(decodeFrames([eventFrame('messageStop', { stopReason }), eventFrame('metadata', { usage: {} })])).finish.unified
    expect(['end_turn', 'max_tokens', 'model_context_window_exceeded', 'tool_use', 'guardrail_intervened', 'content_filtered', 'malformed_model_output'].map(finish)).toEqual([
      'stop',
      'length',
      'length',
      'tool_calls',
      'content_filter',
      'content_filter',
      'other',
    ])
  })

  test('an exception in the stream is an error event; a cut stream ends with one', () => {
    const thrown = decodeFrames([
      eventFrame('messageStart', { role: 'assistant' }),
      eventFrame('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'par' } }),
      exceptionFrame('throttlingException', 'Too many tokens, please wait before trying again.'),
      eventFrame('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'ignored' } }),
    ])
    expect(thrown.at(-1)).toEqual({ type: 'error', error: { status: 429, code: 'throttlingException', message: 'Too many tokens, please wait before trying again.' } })
    expect(thrown.filter((e) => e.type === 'text-delta').length).toBe(1)
    const stream = exceptionFrame('modelStreamErrorException', 'The model failed', { originalStatusCode: 500 })
    expect(decodeFrames([stream])).toEqual([{ type: 'error', error: { status: 424, code: 'modelStreamErrorException', message: 'The model failed' } }])
    const cut = decodeFrames([eventFrame('messageStart', { role: 'assistant' }), eventFrame('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'par' } })])
    expect(cut.at(-1)).toEqual({ type: 'error', error: { status: 502, code: 'upstream_incomplete', message: 'upstream stream ended before messageStop' } })
  })

  test('usage tap reads the metadata event only', () => {
    const tap = bedrockConverse.createUsageTap()
    const parser = new AwsEventStreamParser()
    for (const ev of parser.push(new Uint8Array(Buffer.concat(streamFrames)))) expect(tap.push(ev)).toBe(true)
    expect(tap.usage()).toEqual(IR_USAGE)
    expect(tap.push({ event: 'metadata', data: '<html>' })).toBe(false)
    expect(tap.push(parseSseText('data: {}\n\n')[0]!)).toBe(true)
  })
})

describe('bedrock converse response', () => {
  const body = {
    output: {
      message: {
        role: 'assistant',
        content: [
          { reasoningContent: { reasoningText: { text: 'hmm', signature: 'SIG' } } },
          { text: 'Two calls.' },
          { toolUse: { toolUseId: 'tooluse_1', name: 'read', input: { path: 'a' } } },
          { toolUse: { toolUseId: 'tooluse_2', name: 'read', input: { path: 'b' } } },
          { citationsContent: {} },
        ],
      },
    },
    stopReason: 'tool_use',
    usage: USAGE,
    metrics: { latencyMs: 1000 },
  }

  test('content, stop reason, usage with cache', () => {
    const { value, warnings } = bedrockConverse.decodeResponse(body)
    expect(value.id).toStartWith('msg_bdrk_')
    expect(value.parts).toEqual([
      { type: 'reasoning', text: 'hmm', signature: 'SIG', origin: 'bedrock-converse' },
      { type: 'text', text: 'Two calls.' },
      { type: 'tool-call', id: 'tooluse_1', name: 'read', arguments: '{"path":"a"}' },
      { type: 'tool-call', id: 'tooluse_2', name: 'read', arguments: '{"path":"b"}' },
    ])
    expect(value.finish).toEqual({ unified: 'tool_calls', raw: 'tool_use' })
    expect(value.usage).toEqual(IR_USAGE)
    expect(warnings).toEqual(['output.message.content[4]: block citationsContent dropped'])
    expect(bedrockConverse.usageFromBody(body)).toEqual(IR_USAGE)
    expect(bedrockConverse.usageFromBody({})).toBeUndefined()
  })

  test("Bedrock's error shapes", () => {
    expect(bedrockConverse.parseError(400, '{"message":"The model returned the following errors: messages: text content blocks must be non-empty"}')).toEqual({
      status: 400,
      code: 'ValidationException',
      message: 'The model returned the following errors: messages: text content blocks must be non-empty',
    })
    expect(bedrockConverse.parseError(429, { __type: 'com.amazon.coral.availability#ThrottlingException', message: 'Too many requests' })).toEqual({
      status: 429,
      code: 'ThrottlingException',
      message: 'Too many requests',
    })
    expect(bedrockConverse.parseError(403, { Message: 'Authentication failed: Please make sure your API Key is valid.' })).toEqual({
      status: 403,
      code: 'AccessDeniedException',
      message: 'Authentication failed: Please make sure your API Key is valid.',
    })
    expect(bedrockConverse.parseError(502, '<html>Bad Gateway</html>')).toEqual({ status: 502, code: 'InternalServerException', message: '<html>Bad Gateway</html>' })
    expect(bedrockConverse.paths).toEqual({ request: '/model/{model}/converse', stream: '/model/{model}/converse-stream' })
  })
})
