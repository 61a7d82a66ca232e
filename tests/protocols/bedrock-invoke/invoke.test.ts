import { describe, expect, test } from 'bun:test'
import { collect, InvalidWireError, type StreamEvent } from '../../../src/ir/index.ts'
import { anthropic } from '../../../src/protocols/anthropic/index.ts'
import { bedrockInvoke, bedrockInvokeBody, InvokeStreamParser } from '../../../src/protocols/bedrock-invoke/index.ts'
import { eventFrame, exceptionFrame } from '../../../src/protocols/framing/aws-event-stream.ts'
import { parseSseText, type SseEvent } from '../../../src/protocols/sse.ts'
import { encodeAll, toolScript, USAGE } from '../helpers.ts'

describe('bedrockInvokeBody', () => {
  const claudeCode = {
    model: 'claude-sonnet-4-5-20250929',
    max_tokens: 32000,
    stream: true,
    system: [{ type: 'text', text: 'You are Claude Code.', cache_control: { type: 'ephemeral' } }],
    messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
    thinking: { type: 'enabled', budget_tokens: 10000 },
    tools: [{ name: 'Bash', input_schema: { type: 'object' } }],
    metadata: { user_id: 'user_abc_session_1' },
    service_tier: 'auto',
    context_management: { edits: [{ type: 'clear_thinking_20251015', keep: 'all' }] },
    anthropic_beta: ['effort-2025-11-24'],
  }
  const header = 'claude-code-20250219, interleaved-thinking-2025-05-14,fine-grained-tool-streaming-2025-05-14,context-management-2025-06-27'

  test("what Bedrock accepts of Claude Code's request, the rest named in warnings", () => {
    const warnings: string[] = []
    const text = bedrockInvokeBody(JSON.stringify(claudeCode), warnings, header)
    expect(JSON.parse(text)).toEqual({
      anthropic_version: 'bedrock-2023-05-31',
      max_tokens: 32000,
      system: claudeCode.system,
      messages: claudeCode.messages,
      thinking: claudeCode.thinking,
      tools: claudeCode.tools,
      context_management: claudeCode.context_management,
      anthropic_beta: ['interleaved-thinking-2025-05-14', 'context-management-2025-06-27', 'effort-2025-11-24'],
    })
    expect(Object.keys(JSON.parse(text))[0]).toBe('anthropic_version')
    expect(warnings).toEqual([
      'metadata, service_tier: not accepted by Bedrock, dropped',
      'anthropic-beta: claude-code-20250219, fine-grained-tool-streaming-2025-05-14 not supported by Bedrock, dropped',
    ])
    // an object gives the same body and leaves the caller's object alone
    const again: string[] = []
    expect(bedrockInvokeBody(claudeCode, again, header)).toBe(text)
    expect(again).toEqual(warnings)
    expect(claudeCode.model).toBe('claude-sonnet-4-5-20250929')
  })

  test('no betas, no warnings; bodies that are not a JSON object are refused', () => {
    const warnings: string[] = []
    expect(JSON.parse(bedrockInvokeBody({ model: 'm', max_tokens: 5, messages: [] }, warnings))).toEqual({ anthropic_version: 'bedrock-2023-05-31', max_tokens: 5, messages: [] })
    expect(warnings).toEqual([])
    expect(() => bedrockInvokeBody('[1]', [])).toThrow(InvalidWireError)
    expect(() => bedrockInvokeBody('{"a":', [])).toThrow(InvalidWireError)
  })

  test('a system turn inside messages (no such beta on Bedrock) becomes a user system reminder, the roles still alternating', () => {
    const warnings: string[] = []
    const messages = [
      { role: 'system', content: 'Agents: Explore.' },
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: [{ type: 'text', text: 'Hello.' }] },
      { role: 'system', content: [{ type: 'text', text: 'Be terse.' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Ok.' }] },
      { role: 'user', content: [{ type: 'text', text: 'next' }] },
      { role: 'system', content: 'Last words.' },
    ]
    const sent = JSON.parse(bedrockInvokeBody({ max_tokens: 5, messages }, warnings)).messages
    const reminder = (text: string) => ({ type: 'text', text: `<system-reminder>\n${text}\n</system-reminder>` })
    expect(sent).toEqual([
      { role: 'user', content: [reminder('Agents: Explore.'), { type: 'text', text: 'hi' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Hello.' }] },
      { role: 'user', content: [reminder('Be terse.')] },
      { role: 'assistant', content: [{ type: 'text', text: 'Ok.' }] },
      { role: 'user', content: [{ type: 'text', text: 'next' }, reminder('Last words.')] },
    ])
    expect(warnings).toHaveLength(3)
    expect(messages[5]!.content).toEqual([{ type: 'text', text: 'next' }]) // the client's body is not changed
  })
})

const chunk = (event: SseEvent, extra: Record<string, unknown> = {}) =>
  eventFrame('chunk', { bytes: Buffer.from(event.data).toString('base64'), p: 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJ', ...extra })

function parse(bytes: Uint8Array, step = 29): { events: SseEvent[]; parser: InvokeStreamParser } {
  const parser = bedrockInvoke.createStreamParser()
  const events: SseEvent[] = []
  for (let i = 0; i < bytes.length; i += step) events.push(...parser.push(bytes.subarray(i, i + step)))
  events.push(...parser.end())
  return { events, parser }
}

const decode = (events: SseEvent[]): StreamEvent[] => {
  const dec = anthropic.createStreamDecoder()
  return [...events.flatMap((e) => dec.push(e)), ...dec.end()]
}

describe('invoke-with-response-stream', () => {
  // Anthropic's own stream for a reply with thinking, text and parallel tool calls
  const sse = parseSseText(encodeAll(anthropic, toolScript(), { model: 'claude-sonnet-4-5' }).join(''))
  const last = JSON.parse(sse.at(-1)!.data)
  const withMetrics: SseEvent = { event: 'message_stop', data: JSON.stringify({ ...last, 'amazon-bedrock-invocationMetrics': { inputTokenCount: 160, outputTokenCount: 42, invocationLatency: 900, firstByteLatency: 300 } }) }
  const upstream = [...sse.slice(0, -1), withMetrics]
  const bytes = new Uint8Array(Buffer.concat(upstream.map((e) => chunk(e))))

  test('chunks become the Anthropic events they carry, at any chunk boundary', () => {
    for (const step of [1, 7, 29, bytes.length]) {
      const { events, parser } = parse(bytes, step)
      expect(parser.invalid).toBeUndefined()
      expect(events).toEqual(upstream.map((e) => ({ event: JSON.parse(e.data).type, data: e.data })))
      expect(parser.dispatched).toBe(upstream.length)
    }
  })

  test('the Anthropic decoder and usage tap read them unchanged', () => {
    const { events } = parse(bytes)
    const res = collect(decode(events))
    expect(res.parts.map((p) => p.type)).toEqual(['reasoning', 'text', 'tool-call', 'tool-call'])
    expect(res.parts[0]).toEqual({ type: 'reasoning', text: 'Let me think.', signature: 'sig-1', origin: 'anthropic' })
    expect(res.finish).toEqual({ unified: 'tool_calls', raw: 'tool_use' })
    expect(res.usage).toEqual(USAGE)
    const tap = anthropic.createUsageTap()
    for (const e of events) expect(tap.push(e)).toBe(true)
    expect(tap.usage()).toEqual(USAGE)
  })

  test("a Bedrock exception becomes Anthropic's error event", () => {
    const { events } = parse(new Uint8Array(Buffer.concat([chunk(upstream[0]!), exceptionFrame('throttlingException', 'Too many tokens, please wait before trying again.')])))
    expect(events[1]).toEqual({ event: 'error', data: '{"type":"error","error":{"type":"rate_limit_error","message":"Too many tokens, please wait before trying again."}}' })
    expect(decode(events).at(-1)).toEqual({ type: 'error', error: { status: 429, code: 'rate_limit_error', message: 'Too many tokens, please wait before trying again.' } })
    const failed = parse(exceptionFrame('modelStreamErrorException', 'Model failed', { originalStatusCode: 500 })).events
    expect(JSON.parse(failed[0]!.data).error).toEqual({ type: 'api_error', message: 'Model failed' })
  })

  test('a corrupted frame or a chunk without an event stops the stream where it is', () => {
    const broken = new Uint8Array(bytes)
    const second = chunk(upstream[0]!).length + 30
    broken[second] = broken[second]! ^ 0xff
    const { events, parser } = parse(broken)
    expect(events.length).toBe(1)
    expect(parser.invalid).toBe('AWS event stream: message CRC mismatch')
    expect(parser.invalidAt).toBe(1)
    const empty = parse(new Uint8Array(Buffer.concat([chunk(upstream[0]!), eventFrame('chunk', { p: 'x' }), chunk(upstream[1]!)])))
    expect(empty.events.length).toBe(1)
    expect(empty.parser.invalid).toBe('an invoke stream chunk without an Anthropic event')
    expect(empty.parser.invalidAt).toBe(1)
  })

  test('errors are parsed in Bedrock shapes; paths', () => {
    expect(bedrockInvoke.parseError(400, '{"message":"Malformed input request: #: extraneous key [metadata] is not permitted, please reformat your input and try again."}')).toEqual({
      status: 400,
      code: 'ValidationException',
      message: 'Malformed input request: #: extraneous key [metadata] is not permitted, please reformat your input and try again.',
    })
    expect(bedrockInvoke.paths).toEqual({ request: '/model/{model}/invoke', stream: '/model/{model}/invoke-with-response-stream' })
  })
})
