import { describe, expect, test } from 'bun:test'
import { collect } from '../../../src/ir/index.ts'
import { gemini } from '../../../src/protocols/gemini/index.ts'
import { anthropic } from '../../../src/protocols/anthropic/index.ts'
import { parseSseText } from '../../../src/protocols/sse.ts'
import { decodeAll, encodeAll, toolScript, USAGE } from '../helpers.ts'

const body = {
  model: 'gemini-2.5-pro',
  systemInstruction: { parts: [{ text: 'be brief' }] },
  contents: [
    { role: 'user', parts: [{ text: 'look' }, { inlineData: { mimeType: 'image/png', data: 'iVBOR' } }] },
    {
      role: 'model',
      parts: [
        { text: 'thinking…', thought: true, thoughtSignature: 'TS0' },
        { functionCall: { name: 'read', args: { path: 'a' } }, thoughtSignature: 'TS1' },
        { functionCall: { name: 'read', args: { path: 'b' } } },
        { functionCall: { name: 'ls', args: {} } },
      ],
    },
    {
      role: 'user',
      parts: [
        { functionResponse: { name: 'read', response: { output: 'A' } } },
        { functionResponse: { name: 'ls', response: { error: 'denied' } } },
        { functionResponse: { name: 'read', response: { output: 'B' } } },
      ],
    },
  ],
  tools: [{ functionDeclarations: [{ name: 'read', description: 'r', parametersJsonSchema: { type: 'object' } }] }, { googleSearch: {} }],
  generationConfig: { temperature: 0.3, maxOutputTokens: 100, stopSequences: ['END'], thinkingConfig: { thinkingBudget: 2048, includeThoughts: true } },
}

describe('gemini request', () => {
  test('synthesized call ids map responses back by name and order', () => {
    const { value: req } = gemini.decodeRequest(body)
    const model = req.messages[1]!
    const tool = req.messages[2]!
    expect(model.role === 'assistant' && model.content.map((p) => (p.type === 'tool-call' ? `${p.name}:${p.id}` : p.type))).toEqual([
      'reasoning',
      'read:gemini_call_0',
      'read:gemini_call_1',
      'ls:gemini_call_2',
    ])
    expect(tool.role === 'tool' && tool.content.map((r) => [r.callId, r.isError ?? false])).toEqual([
      ['gemini_call_0', false],
      ['gemini_call_2', true],
      ['gemini_call_1', false],
    ])
    expect(req.sampling).toEqual({ temperature: 0.3, stop: ['END'] })
    expect(req.reasoning).toEqual({ enabled: true, budgetTokens: 2048, summary: 'auto' })
  })

  test('round trip keeps thoughtSignature on thoughts and function calls', () => {
    const { value: req } = gemini.decodeRequest(body)
    const { value: out } = gemini.encodeRequest(req)
    expect(out.contents).toEqual(body.contents.map((c, i) => (i === 2 ? { ...c } : c)))
    expect(out.systemInstruction).toEqual(body.systemInstruction)
    expect(out.tools).toEqual(body.tools)
    expect(out.generationConfig).toEqual(body.generationConfig)
  })

  test('to anthropic: ids carried, gemini signatures dropped, tool results in a user turn', () => {
    const { value: req } = gemini.decodeRequest(body)
    const { value, warnings } = anthropic.encodeRequest(req)
    expect(warnings).toContain('tools[1]: hosted googleSearch tool is not available on Anthropic upstreams, dropped')
    expect((value.tools as unknown[]).length).toBe(1)
    expect(warnings).toContain('messages[1].content[0]: reasoning from gemini cannot be verified by Anthropic, dropped')
    const msgs = value.messages as { role: string; content: Record<string, unknown>[] }[]
    expect(msgs[0]!.content[1]).toEqual({ type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBOR' } })
    expect(msgs[1]!.content.map((b) => b.id)).toEqual(['gemini_call_0', 'gemini_call_1', 'gemini_call_2'])
    expect(msgs[2]!.content).toEqual([
      { type: 'tool_result', tool_use_id: 'gemini_call_0', content: 'A' },
      { type: 'tool_result', tool_use_id: 'gemini_call_2', content: 'denied', is_error: true },
      { type: 'tool_result', tool_use_id: 'gemini_call_1', content: 'B' },
    ])
  })
})

describe('gemini responses and streams', () => {
  test('usage: promptTokenCount includes cached; thoughts separate from candidates', () => {
    const { value } = gemini.decodeResponse({
      candidates: [{ content: { role: 'model', parts: [{ text: 'hi' }] }, finishReason: 'STOP' }],
      usageMetadata: { promptTokenCount: 1000, cachedContentTokenCount: 600, candidatesTokenCount: 40, thoughtsTokenCount: 25, totalTokenCount: 1065 },
      modelVersion: 'gemini-2.5-pro',
      responseId: 'r1',
    })
    expect(value.usage).toEqual({ input: { noCache: 400, cacheRead: 600, cacheWrite: 0 }, output: { text: 40, reasoning: 25 } })
    expect(value.finish).toEqual({ unified: 'stop', raw: 'STOP' })
    expect(gemini.encodeResponse(value).value.usageMetadata).toEqual({
      promptTokenCount: 1000,
      candidatesTokenCount: 40,
      thoughtsTokenCount: 25,
      cachedContentTokenCount: 600,
      totalTokenCount: 1065,
    })
  })

  test('stream encoder frames: text deltas, whole function calls, final finishReason + usage', () => {
    const frames = encodeAll(gemini, toolScript({ signature: 'TS', origin: 'gemini' }), { model: 'gemini-x' })
    for (const f of frames) expect(f).toMatch(/^data: \{.*\}\n\n$/)
    const chunks = parseSseText(frames.join('')).map((e) => JSON.parse(e.data))
    const parts = chunks.flatMap((c) => c.candidates[0].content.parts)
    expect(parts).toEqual([
      { text: 'Let me ', thought: true },
      { text: 'think.', thought: true },
      { text: '', thought: true, thoughtSignature: 'TS' },
      { text: 'Running ' },
      { text: 'tools.' },
      { functionCall: { name: 'Bash', args: { command: 'ls' } } },
      { functionCall: { name: 'Read', args: { file_path: '/x' } } },
    ])
    expect(chunks.at(-1).candidates[0].finishReason).toBe('STOP')
    expect(chunks.at(-1).usageMetadata).toEqual({ promptTokenCount: 160, candidatesTokenCount: 30, totalTokenCount: 202, thoughtsTokenCount: 12, cachedContentTokenCount: 50 })
    // decoding our own output gives the same content back
    const res = collect(decodeAll(gemini, frames.join('')))
    expect(res.parts.map((p) => p.type)).toEqual(['reasoning', 'text', 'tool-call', 'tool-call'])
    expect(res.parts[0]).toEqual({ type: 'reasoning', text: 'Let me think.', signature: 'TS', origin: 'gemini' })
    expect(res.finish.unified).toBe('tool_calls')
    // Gemini has no cache-write counter: cache writes fold into the uncached prompt count
    expect(res.usage).toEqual({ input: { noCache: 110, cacheRead: 50, cacheWrite: 0 }, output: USAGE.output })
  })

  test('usage tap and MAX_TOKENS / SAFETY finish', () => {
    const tap = gemini.createUsageTap()
    tap.push({ data: JSON.stringify({ candidates: [{ content: { parts: [{ text: 'x' }] } }] }) })
    tap.push({ data: JSON.stringify({ candidates: [{ finishReason: 'MAX_TOKENS' }], usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5 } }) })
    expect(tap.usage()).toEqual({ input: { noCache: 10, cacheRead: 0, cacheWrite: 0 }, output: { text: 5, reasoning: 0 } })
    expect(gemini.decodeResponse({ candidates: [{ finishReason: 'MAX_TOKENS' }] }).value.finish.unified).toBe('length')
    expect(gemini.decodeResponse({ candidates: [{ finishReason: 'SAFETY' }] }).value.finish.unified).toBe('content_filter')
  })
})
