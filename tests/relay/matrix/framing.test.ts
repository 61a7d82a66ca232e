/**
 * Byte-level SSE framing each client needs, for every client protocol × every upstream protocol, on one
 * answer with reasoning, text and two parallel tool calls (the hardest block layout).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { ALL_UPSTREAMS, CALLS, REASONING, resetFakes, startMatrixEnv, USAGE, wireOf, type MatrixEnv } from './harness'
import { rawStream } from './raw'

let env: MatrixEnv
beforeAll(async () => {
  env = await startMatrixEnv()
})
afterAll(() => env.stop())
beforeEach(() => {
  resetFakes(env)
  const answer = { reasoning: REASONING, text: ['Let me ', 'check.'], signature: 'sig-frame', toolCalls: CALLS.map((c) => ({ ...c, fragments: 3 })), usage: USAGE }
  for (const fake of [env.upstream, env.vendors.bedrock, env.vendors.vertex]) fake.setBehavior(answer)
})

const argsOf = (name: string) => JSON.stringify(CALLS.find((c) => c.name === name)!.arguments)

describe.each(ALL_UPSTREAMS)('framing from a $protocol upstream', (up) => {
  test('anthropic: event lines, message_start first, blocks opened before deltas, indexes across thinking/text/tools, tool_use', async () => {
    const s = await rawStream(env, 'anthropic', up.model)
    expect(s.status).toBe(200)
    expect(s.contentType).toContain('text/event-stream')
    for (const e of s.events) expect(e.event).toBe(JSON.parse(e.data).type)
    const types = s.data.map((d) => d.type).filter((t) => t !== 'ping')
    expect(types[0]).toBe('message_start')
    expect(types.slice(-2)).toEqual(['message_delta', 'message_stop'])
    const open = new Map<number, string>()
    const closed = new Set<number>()
    for (const d of s.data) {
      if (d.type === 'content_block_start') {
        expect(open.has(d.index)).toBe(false)
        expect(d.index).toBe(open.size) // indexes count up from 0 without gaps
        open.set(d.index, d.content_block.type)
      } else if (d.type === 'content_block_delta') {
        expect(open.has(d.index) && !closed.has(d.index)).toBe(true)
      } else if (d.type === 'content_block_stop') closed.add(d.index)
    }
    expect([...open.values()]).toEqual(['thinking', 'text', 'tool_use', 'tool_use'])
    expect(closed.size).toBe(4)
    const starts = s.data.filter((d) => d.type === 'content_block_start' && d.content_block.type === 'tool_use')
    expect(starts.map((d) => d.content_block.name)).toEqual(['get_weather', 'get_time'])
    for (const start of starts) {
      const json = s.data.filter((d) => d.type === 'content_block_delta' && d.index === start.index).map((d) => d.delta.partial_json).join('')
      expect(JSON.parse(json)).toEqual(JSON.parse(argsOf(start.content_block.name)))
    }
    const thinking = s.data.filter((d) => d.type === 'content_block_delta' && d.index === 0)
    expect(thinking.filter((d) => d.delta.type === 'thinking_delta').map((d) => d.delta.thinking).join('')).toBe(REASONING)
    expect(thinking.some((d) => d.delta.type === 'signature_delta' && d.delta.signature)).toBe(true)
    expect(s.data.find((d) => d.type === 'message_delta').delta.stop_reason).toBe('tool_use')
  })

  // Anthropic and Gemini report the prompt before the first content (Gemini on every chunk); the others only at the end
  test.if(wireOf(up) === 'anthropic' || wireOf(up) === 'gemini')('anthropic: message_start carries the input usage the upstream reported before content', async () => {
    const s = await rawStream(env, 'anthropic', up.model)
    const start = s.data.find((d) => d.type === 'message_start').message.usage
    const end = s.data.find((d) => d.type === 'message_delta').usage
    expect(start.input_tokens).toBeGreaterThan(0)
    expect(start.input_tokens).toBe(end.input_tokens)
    expect(start.cache_read_input_tokens).toBe(USAGE.cacheRead)
  })

  test('openai-chat: role in the first delta, one id, tool call deltas by index, final finish_reason, usage chunk, [DONE]', async () => {
    const s = await rawStream(env, 'openai-chat', up.model)
    expect(s.status).toBe(200)
    expect(s.text.trimEnd().endsWith('data: [DONE]')).toBe(true)
    expect(s.events.every((e) => e.event === undefined)).toBe(true)
    const chunks = s.data
    expect(chunks[0].choices[0].delta.role).toBe('assistant')
    expect(new Set(chunks.map((c) => c.id)).size).toBe(1)
    expect(chunks.every((c) => c.object === 'chat.completion.chunk')).toBe(true)
    const withChoice = chunks.filter((c) => c.choices.length > 0)
    expect(withChoice.at(-1).choices[0].finish_reason).toBe('tool_calls')
    expect(withChoice.slice(0, -1).every((c) => c.choices[0].finish_reason == null)).toBe(true)
    const usage = chunks.at(-1)
    expect(usage.choices).toEqual([])
    expect(usage.usage.prompt_tokens).toBeGreaterThan(0)
    const calls = new Map<number, { id?: string; name?: string; args: string }>()
    for (const c of withChoice) {
      for (const t of c.choices[0].delta.tool_calls ?? []) {
        const call = calls.get(t.index) ?? { args: '' }
        if (!calls.has(t.index)) {
          expect(t.id).toBeString() // the first delta of a call carries id, type and name
          expect(t.type).toBe('function')
          Object.assign(call, { id: t.id, name: t.function.name })
        }
        call.args += t.function?.arguments ?? ''
        calls.set(t.index, call)
      }
    }
    expect([...calls.keys()]).toEqual([0, 1])
    expect([...calls.values()].map((c) => ({ name: c.name, args: JSON.parse(c.args) }))).toEqual(CALLS.map((c) => ({ name: c.name, args: c.arguments })))
    expect(withChoice.map((c) => c.choices[0].delta.content ?? '').join('')).toBe('Let me check.')
  })

  test('openai-responses: created → output_item.added → content_part.added → deltas → .done events → completed', async () => {
    const s = await rawStream(env, 'openai-responses', up.model)
    expect(s.status).toBe(200)
    for (const e of s.events) expect(e.event).toBe(JSON.parse(e.data).type)
    const types = s.data.map((d) => d.type)
    expect(types[0]).toBe('response.created')
    expect(types.at(-1)).toBe('response.completed')
    expect(s.data.map((d) => d.sequence_number)).toEqual(s.data.map((_, i) => i))
    const added = s.data.filter((d) => d.type === 'response.output_item.added')
    expect(added.map((d) => d.item.type)).toEqual(['reasoning', 'message', 'function_call', 'function_call'])
    expect(added.map((d) => d.output_index)).toEqual([0, 1, 2, 3])
    const first = (type: string, pred: (d: any) => boolean = () => true) => s.data.findIndex((d) => d.type === type && pred(d))
    const last = (type: string) => s.data.findLastIndex((d) => d.type === type)
    const msg = added[1].item.id
    expect(first('response.output_item.added', (d) => d.item.id === msg)).toBeLessThan(first('response.content_part.added'))
    expect(first('response.content_part.added')).toBeLessThan(first('response.output_text.delta'))
    expect(last('response.output_text.delta')).toBeLessThan(first('response.output_text.done'))
    expect(first('response.output_text.done')).toBeLessThan(first('response.content_part.done'))
    expect(first('response.content_part.done')).toBeLessThan(first('response.output_item.done', (d) => d.item.id === msg))
    expect(s.data.filter((d) => d.type === 'response.output_text.delta').every((d) => d.item_id === msg)).toBe(true)
    expect(s.data.find((d) => d.type === 'response.output_text.done').text).toBe('Let me check.')
    expect(s.data.filter((d) => d.type === 'response.reasoning_summary_text.delta').map((d) => d.delta).join('')).toBe(REASONING)
    for (const item of added.slice(2)) {
      const deltas = s.data.filter((d) => d.type === 'response.function_call_arguments.delta' && d.item_id === item.item.id)
      expect(deltas.length).toBeGreaterThan(0)
      const done = s.data.find((d) => d.type === 'response.function_call_arguments.done' && d.item_id === item.item.id)
      expect(JSON.parse(done.arguments)).toEqual(JSON.parse(argsOf(item.item.name)))
    }
    expect(s.data.filter((d) => d.type === 'response.output_item.done')).toHaveLength(4)
    const completed = s.data.at(-1).response
    expect(completed.status).toBe('completed')
    expect(completed.output.map((o: any) => o.type)).toEqual(['reasoning', 'message', 'function_call', 'function_call'])
    expect(completed.usage.input_tokens).toBeGreaterThan(0)
  })

  test('gemini: bare data frames of GenerateContentResponse, whole functionCalls, finishReason and usage last', async () => {
    const s = await rawStream(env, 'gemini', up.model)
    expect(s.status).toBe(200)
    expect(s.contentType).toContain('text/event-stream')
    expect(s.events.every((e) => e.event === undefined)).toBe(true)
    expect(s.text).not.toContain('[DONE]')
    for (const d of s.data) expect(d.candidates[0].content.role).toBe('model')
    const parts = s.data.flatMap((d) => d.candidates[0].content.parts)
    expect(parts.filter((p: any) => p.thought).map((p: any) => p.text).join('')).toBe(REASONING)
    expect(parts.filter((p: any) => p.text !== undefined && !p.thought).map((p: any) => p.text).join('')).toBe('Let me check.')
    expect(parts.filter((p: any) => p.functionCall).map((p: any) => ({ name: p.functionCall.name, arguments: p.functionCall.args }))).toEqual(CALLS)
    const lastFrame = s.data.at(-1)
    expect(lastFrame.candidates[0].finishReason).toBe('STOP')
    expect(lastFrame.usageMetadata.promptTokenCount).toBe(USAGE.input + USAGE.cacheRead + USAGE.cacheWrite)
    expect(s.data.slice(0, -1).every((d) => d.candidates[0].finishReason === undefined)).toBe(true)
  })
})
