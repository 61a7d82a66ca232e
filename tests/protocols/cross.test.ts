import { describe, expect, test } from 'bun:test'
import { collect, emptyRequest, responseToEvents, type IrRequest, type IrResponse } from '../../src/ir/index.ts'
import { protocols, PROTOCOL_IDS } from '../../src/protocols/index.ts'
import { USAGE } from './helpers.ts'

/** One conversation with everything: system, image by URL and base64, parallel calls, an error result. */
function conversation(): IrRequest {
  const req = emptyRequest('model-x')
  req.system = [{ type: 'text', text: 'sys' }]
  req.messages = [
    {
      role: 'user',
      content: [
        { type: 'text', text: 'what is this?' },
        { type: 'image', source: { kind: 'url', url: 'https://example.com/a.png' } },
        { type: 'image', source: { kind: 'base64', data: 'AAAA' }, mediaType: 'image/jpeg' },
      ],
    },
    {
      role: 'assistant',
      content: [
        { type: 'text', text: 'checking' },
        { type: 'tool-call', id: 'call_1', name: 'lookup', arguments: '{"q":"a"}' },
        { type: 'tool-call', id: 'call_2', name: 'fetch', arguments: '{"u":1}' },
      ],
    },
    {
      role: 'tool',
      content: [
        { type: 'tool-result', callId: 'call_1', content: [{ type: 'text', text: 'found' }] },
        { type: 'tool-result', callId: 'call_2', content: [{ type: 'text', text: 'timeout' }], isError: true },
      ],
    },
  ]
  req.tools = [
    { kind: 'function', name: 'lookup', description: 'find', parameters: { type: 'object', properties: { q: { type: 'string' } } } },
    { kind: 'function', name: 'fetch', parameters: { type: 'object', properties: { u: { type: 'number' } } } },
  ]
  req.toolChoice = { type: 'required' }
  req.sampling = { temperature: 0.5, topP: 0.9, stop: ['STOP'] }
  req.maxOutputTokens = 2000
  req.responseFormat = { type: 'json_schema', name: 'out', schema: { type: 'object' }, strict: true }
  return req
}

describe('IR → every protocol → IR keeps the conversation', () => {
  for (const id of PROTOCOL_IDS) {
    test(id, () => {
      const { value: wire } = protocols[id].encodeRequest(conversation())
      const body = id === 'gemini' ? { ...wire, model: 'model-x' } : wire
      const { value: back } = protocols[id].decodeRequest(body)
      const texts = back.messages.flatMap((m) => (m.role === 'opaque' ? [] : m.content.flatMap((p) => (p.type === 'text' ? [p.text] : []))))
      expect(texts).toContain('what is this?')
      const sys = [...back.system, ...back.messages.filter((m) => m.role === 'system').flatMap((m) => m.content)]
      expect(sys.map((p) => p.text)).toEqual(['sys'])
      const images = back.messages.flatMap((m) => (m.role === 'user' ? m.content.filter((p) => p.type === 'image') : []))
      expect(images).toEqual([
        expect.objectContaining({ type: 'image', source: { kind: 'url', url: 'https://example.com/a.png' } }),
        expect.objectContaining({ type: 'image', source: { kind: 'base64', data: 'AAAA' }, mediaType: 'image/jpeg' }),
      ])
      const calls = back.messages.flatMap((m) => (m.role === 'assistant' ? m.content.filter((p) => p.type === 'tool-call') : []))
      expect(calls.map((c) => c.type === 'tool-call' && [c.name, JSON.parse(c.arguments)])).toEqual([
        ['lookup', { q: 'a' }],
        ['fetch', { u: 1 }],
      ])
      const results = back.messages.flatMap((m) => (m.role === 'tool' ? m.content : []))
      expect(results.length).toBe(2)
      // results point at the calls they answer
      expect(results.map((r) => r.callId)).toEqual(calls.map((c) => (c.type === 'tool-call' ? c.id : '')))
      const err = results[1]!
      const errText = err.content.map((c) => (c.type === 'text' ? c.text : '')).join('')
      expect(err.isError === true || /^error/i.test(errText)).toBe(true)
      expect(errText).toContain('timeout')
      expect(back.tools.map((t) => t.kind === 'function' && t.name)).toEqual(['lookup', 'fetch'])
      expect(back.toolChoice).toEqual({ type: 'required' })
      expect(back.maxOutputTokens).toBe(2000)
      expect(back.sampling.temperature).toBe(0.5)
      if (id !== 'openai-responses') expect(back.sampling.stop).toEqual(['STOP'])
      if (id === 'anthropic') expect(back.responseFormat).toEqual({ type: 'json_schema', name: 'output', schema: { type: 'object' } })
      else expect(back.responseFormat?.type).toBe('json_schema')
    })
  }

  test('stop sequences are dropped with a warning for Responses', () => {
    const { warnings } = protocols['openai-responses'].encodeRequest(conversation())
    expect(warnings).toContain('stop: not supported by Responses, dropped')
  })

  test('anthropic tool_choice any / chat required / gemini ANY', () => {
    expect(protocols.anthropic.encodeRequest(conversation()).value.tool_choice).toEqual({ type: 'any' })
    expect(protocols['openai-chat'].encodeRequest(conversation()).value.tool_choice).toBe('required')
    expect(protocols.gemini.encodeRequest(conversation()).value.toolConfig).toEqual({ functionCallingConfig: { mode: 'ANY' } })
  })

  test('anthropic temperature above 1 is clamped; reasoning effort becomes a thinking budget below max_tokens', () => {
    const req = conversation()
    req.sampling.temperature = 1.6
    req.sampling.topK = undefined
    expect(protocols.anthropic.encodeRequest(req).value.temperature).toBe(1)
    req.reasoning = { effort: 'high' }
    req.maxOutputTokens = 16000
    const { value, warnings } = protocols.anthropic.encodeRequest(req)
    expect(value.thinking).toEqual({ type: 'enabled', budget_tokens: 15999 })
    expect(value.temperature).toBeUndefined()
    expect(warnings).toContain('temperature: not allowed with thinking, dropped')
  })
})

describe('responses: every protocol encodes and decodes the same non-stream answer', () => {
  const answer: IrResponse = {
    id: 'x',
    model: 'model-x',
    parts: [
      { type: 'text', text: 'calling' },
      { type: 'tool-call', id: 'call_1', name: 'lookup', arguments: '{"q":"a"}' },
      { type: 'tool-call', id: 'call_2', name: 'fetch', arguments: '{"u":1}' },
    ],
    finish: { unified: 'tool_calls' },
    usage: USAGE,
  }
  for (const id of PROTOCOL_IDS) {
    test(id, () => {
      const { value: wire } = protocols[id].encodeResponse(answer)
      const { value: back } = protocols[id].decodeResponse(wire)
      expect(back.parts.map((p) => (p.type === 'tool-call' ? [p.name, p.arguments] : p.type === 'text' ? p.text : p.type))).toEqual([
        'calling',
        ['lookup', '{"q":"a"}'],
        ['fetch', '{"u":1}'],
      ])
      expect(back.finish.unified).toBe('tool_calls')
      // Gemini has no cache-write counter; the rest is exact in every protocol
      const expected = id === 'gemini' ? { input: { noCache: 110, cacheRead: 50, cacheWrite: 0 }, output: USAGE.output } : id === 'anthropic' ? USAGE : { input: { noCache: 110, cacheRead: 50, cacheWrite: 0 }, output: USAGE.output }
      expect(back.usage).toEqual(expected)
      expect(protocols[id].usageFromBody(wire)).toEqual(expected)
      // stream of the same answer collects to the same parts
      expect(collect(responseToEvents(back)).parts).toEqual(back.parts)
    })
  }

  test('wire usage field names', () => {
    expect(protocols['openai-chat'].encodeResponse(answer).value.usage).toEqual({
      prompt_tokens: 160,
      completion_tokens: 42,
      total_tokens: 202,
      prompt_tokens_details: { cached_tokens: 50 },
      completion_tokens_details: { reasoning_tokens: 12 },
    })
    expect(protocols['openai-responses'].encodeResponse(answer).value.usage).toEqual({
      input_tokens: 160,
      input_tokens_details: { cached_tokens: 50 },
      output_tokens: 42,
      output_tokens_details: { reasoning_tokens: 12 },
      total_tokens: 202,
    })
    expect(protocols.anthropic.encodeResponse(answer).value.stop_reason).toBe('tool_use')
    expect(protocols['openai-chat'].encodeResponse(answer).value.choices).toEqual([
      {
        index: 0,
        message: {
          role: 'assistant',
          content: 'calling',
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'lookup', arguments: '{"q":"a"}' } },
            { id: 'call_2', type: 'function', function: { name: 'fetch', arguments: '{"u":1}' } },
          ],
        },
        logprobs: null,
        finish_reason: 'tool_calls',
      },
    ])
  })

  test('anthropic usage: input_tokens excludes cache, so it is not double counted from OpenAI', () => {
    const { value } = protocols['openai-chat'].decodeResponse({
      id: 'c',
      choices: [{ message: { content: 'x' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 1000, completion_tokens: 10, prompt_tokens_details: { cached_tokens: 900 } },
    })
    expect(protocols.anthropic.encodeResponse(value).value.usage).toEqual({ input_tokens: 100, cache_creation_input_tokens: 0, cache_read_input_tokens: 900, output_tokens: 10 })
  })
})

describe('errors', () => {
  test('render per protocol', () => {
    expect(protocols.anthropic.renderError({ status: 401, message: 'bad key' })).toEqual({ type: 'error', error: { type: 'authentication_error', message: 'bad key' } })
    expect(protocols.anthropic.renderError({ status: 529, message: 'x' })).toEqual({ type: 'error', error: { type: 'overloaded_error', message: 'x' } })
    expect(protocols.anthropic.renderError({ status: 404, message: 'x' })).toMatchObject({ error: { type: 'not_found_error' } })
    expect(protocols.anthropic.renderError({ status: 429, message: 'x' })).toMatchObject({ error: { type: 'rate_limit_error' } })
    expect(protocols.anthropic.renderError({ status: 403, message: 'x' })).toMatchObject({ error: { type: 'permission_error' } })
    expect(protocols.anthropic.renderError({ status: 500, message: 'x' })).toMatchObject({ error: { type: 'api_error' } })
    expect(protocols['openai-chat'].renderError({ status: 400, message: 'm', code: 'invalid_request', param: 'tools[4]' })).toEqual({
      error: { message: 'm', type: 'invalid_request_error', param: 'tools[4]', code: 'invalid_request' },
    })
    expect(protocols.gemini.renderError({ status: 429, message: 'q' })).toEqual({ error: { code: 429, message: 'q', status: 'RESOURCE_EXHAUSTED' } })
    expect(protocols.gemini.renderError({ status: 401, message: 'q' })).toMatchObject({ error: { status: 'UNAUTHENTICATED' } })
    expect(protocols.gemini.renderError({ status: 503, message: 'q' })).toMatchObject({ error: { status: 'UNAVAILABLE' } })
  })

  test('in-stream errors', () => {
    expect(protocols.anthropic.renderStreamError({ status: 500, message: 'x' })).toBe('event: error\ndata: {"type":"error","error":{"type":"api_error","message":"x"}}\n\n')
    expect(protocols['openai-chat'].renderStreamError({ status: 500, message: 'x' })).toBe('data: {"error":{"message":"x","type":"server_error","param":null,"code":null}}\n\n')
    expect(protocols['openai-responses'].renderStreamError({ status: 500, message: 'x' })).toStartWith('event: error\ndata: {"type":"error"')
    expect(protocols.gemini.renderStreamError({ status: 500, message: 'x' })).toBe('data: {"error":{"code":500,"message":"x","status":"INTERNAL"}}\n\n')
  })

  test('parse upstream error bodies', () => {
    expect(protocols.anthropic.parseError(529, '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}')).toEqual({ status: 529, message: 'Overloaded', code: 'overloaded_error' })
    expect(protocols['openai-chat'].parseError(400, { error: { message: 'bad', type: 'invalid_request_error', code: 'x', param: 'model' } })).toEqual({ status: 400, message: 'bad', code: 'x', param: 'model' })
    expect(protocols['openai-responses'].parseError(502, 'Bad Gateway')).toEqual({ status: 502, message: 'Bad Gateway' })
    expect(protocols.gemini.parseError(400, [{ error: { code: 400, message: 'API key not valid', status: 'INVALID_ARGUMENT' } }])).toEqual({ status: 400, message: 'API key not valid', code: 'INVALID_ARGUMENT' })
  })
})

describe('wire validation', () => {
  test('anthropic: max_tokens integer ≥ 1 and temperature 0..1', () => {
    const base = { model: 'm', messages: [{ role: 'user', content: 'hi' }], max_tokens: 10 }
    expect(() => protocols.anthropic.decodeRequest(base)).not.toThrow()
    expect(() => protocols.anthropic.decodeRequest({ ...base, max_tokens: 0 })).toThrow('max_tokens')
    expect(() => protocols.anthropic.decodeRequest({ ...base, max_tokens: 1.5 })).toThrow('max_tokens')
    expect(() => protocols.anthropic.decodeRequest({ ...base, temperature: 1.2 })).toThrow('temperature')
    expect(() => protocols.anthropic.decodeRequest({ messages: [], max_tokens: 1 })).toThrow('model')
    // unknown fields survive
    const { value } = protocols.anthropic.decodeRequest({ ...base, brand_new_field: { a: 1 } })
    expect(protocols.anthropic.encodeRequest(value).value.brand_new_field).toEqual({ a: 1 })
  })

  test('chat and responses reject missing model', () => {
    expect(() => protocols['openai-chat'].decodeRequest({ messages: [{ role: 'user', content: 'x' }] })).toThrow('model')
    expect(() => protocols['openai-responses'].decodeRequest({ input: 'x' })).toThrow('model')
    expect(protocols['openai-responses'].decodeRequest({ model: 'm', input: 'hello' }).value.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'hello' }] }])
  })
})
