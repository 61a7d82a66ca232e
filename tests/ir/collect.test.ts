import { describe, expect, test } from 'bun:test'
import {
  collect,
  emptyUsage,
  inputTokens,
  outputTokens,
  parseArguments,
  responseToEvents,
  splitLeadingSystem,
  toolNameIndex,
  usageFromInclusive,
  type IrResponse,
  type StreamEvent,
} from '../../src/ir/index.ts'

const usage = { input: { noCache: 10, cacheRead: 20, cacheWrite: 5 }, output: { text: 7, reasoning: 3 } }

describe('collect', () => {
  test('folds interleaved blocks and parallel tool calls in start order', () => {
    const events: StreamEvent[] = [
      { type: 'start', id: 'r1', model: 'm', created: 123 },
      { type: 'reasoning-start', id: 'r' },
      { type: 'reasoning-delta', id: 'r', delta: 'think ' },
      { type: 'reasoning-delta', id: 'r', delta: 'more' },
      { type: 'reasoning-end', id: 'r', signature: 'sig', origin: 'anthropic' },
      { type: 'text-start', id: 't' },
      { type: 'text-delta', id: 't', delta: 'Hel' },
      { type: 'tool-input-start', id: 'c1', name: 'a', index: 0 },
      { type: 'tool-input-start', id: 'c2', name: 'b', index: 1 },
      { type: 'tool-input-delta', id: 'c2', delta: '{"y":' },
      { type: 'text-delta', id: 't', delta: 'lo' },
      { type: 'tool-input-delta', id: 'c1', delta: '{"x":1}' },
      { type: 'tool-input-delta', id: 'c2', delta: '2}' },
      { type: 'text-end', id: 't' },
      { type: 'tool-input-end', id: 'c1' },
      { type: 'tool-input-end', id: 'c2', providerOptions: { gemini: { thoughtSignature: 'ts' } } },
      { type: 'usage', usage },
      { type: 'finish', reason: { unified: 'tool_calls', raw: 'tool_use' } },
    ]
    const r = collect(events)
    expect(r).toEqual({
      id: 'r1',
      model: 'm',
      created: 123,
      parts: [
        { type: 'reasoning', text: 'think more', signature: 'sig', origin: 'anthropic' },
        { type: 'text', text: 'Hello' },
        { type: 'tool-call', id: 'c1', name: 'a', arguments: '{"x":1}' },
        { type: 'tool-call', id: 'c2', name: 'b', arguments: '{"y":2}', providerOptions: { gemini: { thoughtSignature: 'ts' } } },
      ],
      finish: { unified: 'tool_calls', raw: 'tool_use' },
      usage,
    })
  })

  test('drops empty text blocks, defaults empty tool args to {}, records errors', () => {
    const r = collect([
      { type: 'start', id: 'x', model: 'm' },
      { type: 'text-start', id: 't' },
      { type: 'text-end', id: 't' },
      { type: 'tool-input-start', id: 'c', name: 'noargs', index: 0 },
      { type: 'tool-input-end', id: 'c' },
      { type: 'error', error: { message: 'boom', status: 502 } },
    ])
    expect(r.parts).toEqual([{ type: 'tool-call', id: 'c', name: 'noargs', arguments: '{}' }])
    expect(r.finish).toEqual({ unified: 'error' })
    expect(r.error).toEqual({ message: 'boom', status: 502 })
    expect(r.usage).toEqual(emptyUsage())
  })

  test('responseToEvents is the inverse of collect', () => {
    const res: IrResponse = {
      id: 'id1',
      model: 'm',
      created: 5,
      parts: [
        { type: 'reasoning', text: 'r', encrypted: 'enc', origin: 'openai-responses', id: 'rs_1' },
        { type: 'text', text: 'hi' },
        { type: 'tool-call', id: 'c', name: 'f', arguments: '{"a":1}' },
      ],
      finish: { unified: 'tool_calls' },
      usage,
    }
    expect(collect(responseToEvents(res))).toEqual(res)
  })
})

describe('usage', () => {
  test('inclusive counters are split without double counting', () => {
    const u = usageFromInclusive({ prompt: 100, cacheRead: 30, outputText: 40, reasoning: 10 })
    expect(u).toEqual({ input: { noCache: 70, cacheRead: 30, cacheWrite: 0 }, output: { text: 40, reasoning: 10 } })
    expect(inputTokens(u)).toBe(100)
    expect(outputTokens(u)).toBe(50)
  })
})

describe('helpers', () => {
  test('splitLeadingSystem hoists only leading system messages', () => {
    const { system, messages } = splitLeadingSystem({
      system: [{ type: 'text', text: 'top' }],
      messages: [
        { role: 'system', content: [{ type: 'text', text: 'dev1' }] },
        { role: 'user', content: [{ type: 'text', text: 'u' }] },
        { role: 'system', content: [{ type: 'text', text: 'mid' }] },
      ],
    })
    expect(system.map((p) => p.text)).toEqual(['top', 'dev1'])
    expect(messages.map((m) => m.role)).toEqual(['user', 'system'])
  })

  test('toolNameIndex and parseArguments', () => {
    const names = toolNameIndex([{ role: 'assistant', content: [{ type: 'tool-call', id: 'c9', name: 'Bash', arguments: '{}' }] }])
    expect(names.get('c9')).toBe('Bash')
    expect(parseArguments('{"a":[1]}')).toEqual({ a: [1] })
    expect(parseArguments('')).toEqual({})
    expect(parseArguments('not json')).toEqual({ _raw: 'not json' })
  })
})
