/**
 * Output controls × every client × every upstream × {non-stream, stream}: stop sequences and the stop reasons
 * back, structured output (json_schema and plain JSON mode), sampling and the output cap in each vendor's own
 * field names; and Gemini's own schema dialect (`parameters`, `responseSchema`) reaching other vendors as JSON Schema.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import type { ProtocolId } from '../../../src/protocols/types'
import type { RelayEnv } from '../../helpers/relay-env'
import { ask, clientRequest, FINISH, PAIRS, sentTo, settled, type Format } from './features-kit'
import { startMatrixEnv, UPSTREAMS } from './harness'

let env: RelayEnv
beforeAll(async () => {
  env = await startMatrixEnv()
  // an OpenAI channel on chat completions (unpinned): its cap field is max_completion_tokens
  await env.addChannel({ type: 1, models: 'gpt-4.1', autoBan: 0 })
})
afterAll(() => env.stop())
beforeEach(() => {
  env.upstream.reset()
  env.outcomes.length = 0
  env.upstream.setBehavior({ text: '{"city":"Paris","temp":21}' })
})

const Q = [{ role: 'user' as const, text: 'Weather in Paris as JSON.' }]
const STOP = ['END', '###']
/** The client's own finish value for a stop sequence hit and for the output cap. */
const STOPPED: Record<ProtocolId, { sequence: string; length: string }> = {
  anthropic: { sequence: 'stop_sequence', length: 'max_tokens' },
  'openai-chat': { sequence: 'stop', length: 'length' },
  'openai-responses': { sequence: 'completed', length: 'incomplete:max_output_tokens' },
  gemini: { sequence: 'STOP', length: 'MAX_TOKENS' },
}
const SCHEMA = { type: 'object', properties: { city: { type: 'string' }, temp: { type: ['number', 'null'] } }, required: ['city', 'temp'], additionalProperties: false }

describe.each(UPSTREAMS)('→ $protocol upstream', (up) => {
  describe.each(PAIRS)('$client client, stream: $stream', ({ client, stream }) => {
    // Responses has no stop parameter: nothing to send from its clients
    test.skipIf(client === 'openai-responses')('stop sequences in the vendor field (Responses: dropped with a warning)', async () => {
      const a = await ask(env, client, up.model, { messages: Q, stop: STOP }, stream)
      expect(a.status).toBe(200)
      const b = sentTo(env, up.protocol).json
      if (up.protocol === 'anthropic') expect(b.stop_sequences).toEqual(STOP)
      if (up.protocol === 'openai-chat') expect(b.stop).toEqual(STOP)
      if (up.protocol === 'gemini') expect(b.generationConfig.stopSequences).toEqual(STOP)
      if (up.protocol === 'openai-responses') {
        expect(b.stop).toBeUndefined()
        expect((await settled(env)).join()).toContain('stop: not supported by Responses, dropped')
      }
    })

    test('stop reasons back: a stop sequence hit and the output cap', async () => {
      // only Anthropic says a stop sequence matched; the others report a plain stop
      env.upstream.setBehavior(up.protocol === 'anthropic' ? { text: 'Sunny', rawFinish: 'stop_sequence' } : { text: 'Sunny' })
      const hit = await ask(env, client, up.model, { messages: Q, ...(client === 'openai-responses' ? {} : { stop: STOP }) }, stream)
      expect(hit.text).toBe('Sunny')
      expect(hit.finish).toBe(up.protocol === 'anthropic' ? STOPPED[client].sequence : FINISH[client].stop)
      env.upstream.setBehavior({ text: 'Sunny and', finish: 'length' })
      const cut = await ask(env, client, up.model, { messages: Q, maxTokens: 3 }, stream)
      expect(cut.text).toBe('Sunny and')
      expect(cut.finish).toBe(STOPPED[client].length)
    })

    test('structured output by JSON schema in the vendor field, the JSON answer back as text', async () => {
      const format: Format = { type: 'json_schema', name: 'weather', schema: SCHEMA }
      const a = await ask(env, client, up.model, { messages: Q, format }, stream)
      expect(a.status).toBe(200)
      expect(JSON.parse(a.text)).toEqual({ city: 'Paris', temp: 21 })
      const b = sentTo(env, up.protocol).json
      // Anthropic and Gemini clients have no schema name: the gateway names it `output`
      const name = client === 'anthropic' || client === 'gemini' ? 'output' : 'weather'
      if (up.protocol === 'anthropic') expect(b.output_config.format).toEqual({ type: 'json_schema', schema: SCHEMA })
      if (up.protocol === 'openai-chat') expect(b.response_format).toEqual({ type: 'json_schema', json_schema: { name, schema: SCHEMA } })
      if (up.protocol === 'openai-responses') expect(b.text.format).toEqual({ type: 'json_schema', name, schema: SCHEMA })
      if (up.protocol === 'gemini') expect(b.generationConfig).toMatchObject({ responseMimeType: 'application/json', responseJsonSchema: SCHEMA })
    })

    // Anthropic clients have no schema-less JSON mode to ask for
    test.skipIf(client === 'anthropic')('JSON mode without a schema: the vendor switch, or for Anthropic a system-prompt instruction and a warning', async () => {
      const a = await ask(env, client, up.model, { system: 'Be brief.', messages: Q, format: { type: 'json_object' } }, stream)
      expect(a.status).toBe(200)
      const b = sentTo(env, up.protocol).json
      if (up.protocol === 'openai-chat') expect(b.response_format).toEqual({ type: 'json_object' })
      if (up.protocol === 'openai-responses') expect(b.text.format).toEqual({ type: 'json_object' })
      if (up.protocol === 'gemini') {
        expect(b.generationConfig.responseMimeType).toBe('application/json')
        expect(b.generationConfig.responseJsonSchema).toBeUndefined()
      }
      if (up.protocol === 'anthropic') {
        expect(b.output_config).toBeUndefined()
        expect(b.system.map((s: any) => s.text)).toEqual(['Be brief.', expect.stringContaining('valid JSON object')])
        expect((await settled(env)).join()).toContain('json_object has no Anthropic equivalent, asked for in the system prompt')
      }
    })

    // OpenAI refuses JSON mode when the prompt never says "json"; a Gemini client need not say it
    test.skipIf(client === 'anthropic' || client === up.protocol || (up.protocol !== 'openai-chat' && up.protocol !== 'openai-responses'))(
      'JSON mode from a prompt that never says json: an OpenAI upstream is told, with a warning',
      async () => {
        const a = await ask(env, client, up.model, { messages: [{ role: 'user', text: 'Weather in Paris?' }], format: { type: 'json_object' } }, stream)
        expect(a.status).toBe(200)
        const b = sentTo(env, up.protocol).json
        if (up.protocol === 'openai-chat') expect(b.messages[0]).toEqual({ role: 'system', content: 'Respond in JSON.' })
        else expect(b.instructions).toBe('Respond in JSON.')
        expect((await settled(env)).join()).toContain('json_object needs the word JSON')
      },
    )

    test('sampling and the output cap in the vendor field names', async () => {
      const topK = client === 'anthropic' || client === 'gemini' ? 40 : undefined
      const a = await ask(env, client, up.model, { messages: Q, temperature: 0.3, topP: 0.9, topK, maxTokens: 321 }, stream)
      expect(a.status).toBe(200)
      const b = sentTo(env, up.protocol).json
      switch (up.protocol) {
        case 'anthropic':
          expect(b).toMatchObject({ max_tokens: 321, temperature: 0.3, top_p: 0.9 })
          expect(b.top_k).toBe(topK)
          break
        case 'openai-chat':
          // a custom OpenAI-compatible channel: max_tokens, unless the chat client itself used max_completion_tokens
          expect(b).toMatchObject({ temperature: 0.3, top_p: 0.9, [client === 'openai-chat' ? 'max_completion_tokens' : 'max_tokens']: 321 })
          expect(b.top_k).toBeUndefined()
          if (topK) expect((await settled(env)).join()).toContain('top_k: not supported by chat completions, dropped')
          break
        case 'openai-responses':
          expect(b).toMatchObject({ max_output_tokens: 321, temperature: 0.3, top_p: 0.9 })
          expect(b.top_k).toBeUndefined()
          expect(b.max_tokens).toBeUndefined()
          break
        case 'gemini':
          expect(b.generationConfig).toEqual({ maxOutputTokens: 321, temperature: 0.3, topP: 0.9, ...(topK ? { topK } : {}) })
          break
      }
    })

    test.skipIf(up.protocol !== 'openai-chat')('an OpenAI chat channel gets max_completion_tokens from every client', async () => {
      const a = await ask(env, client, 'gpt-4.1', { messages: Q, maxTokens: 321 }, stream)
      expect(a.status).toBe(200)
      const sent = env.upstream.requests[0]!
      expect(sent.path).toBe(client === 'openai-responses' ? '/v1/responses' : '/v1/chat/completions') // Responses passes through
      if (client !== 'openai-responses') {
        expect(sent.json.max_completion_tokens).toBe(321)
        expect(sent.json.max_tokens).toBeUndefined()
      }
    })
  })
})

/** Gemini's OpenAPI dialect: upper-case types, nullable, propertyOrdering. */
const GEMINI_SCHEMA = {
  type: 'OBJECT',
  properties: { city: { type: 'STRING', description: 'City' }, temp: { type: 'NUMBER', nullable: true }, tags: { type: 'ARRAY', items: { type: 'STRING', enum: ['a', 'b'] } } },
  required: ['city'],
  propertyOrdering: ['city', 'temp', 'tags'],
}
const AS_JSON_SCHEMA = {
  type: 'object',
  properties: { city: { type: 'string', description: 'City' }, temp: { type: ['number', 'null'] }, tags: { type: 'array', items: { type: 'string', enum: ['a', 'b'] } } },
  required: ['city'],
}

describe.each(UPSTREAMS)('Gemini schema dialect → $protocol upstream', (up) => {
  test('function `parameters` and `responseSchema` reach other vendors as JSON Schema, Gemini unchanged', async () => {
    const req = clientRequest('gemini', up.model, env.key, { messages: Q }, false)
    req.body.tools = [{ functionDeclarations: [{ name: 'get_weather', description: 'Weather', parameters: GEMINI_SCHEMA }] }]
    req.body.generationConfig = { responseMimeType: 'application/json', responseSchema: GEMINI_SCHEMA }
    const res = await env.app.fetch(req.path, { method: 'POST', headers: req.headers, body: JSON.stringify(req.body) })
    expect(res.status).toBe(200)
    const b = sentTo(env, up.protocol).json
    const tool = { anthropic: () => b.tools[0].input_schema, 'openai-chat': () => b.tools[0].function.parameters, 'openai-responses': () => b.tools[0].parameters, gemini: () => b.tools[0].functionDeclarations[0].parameters }
    const format = { anthropic: () => b.output_config.format.schema, 'openai-chat': () => b.response_format.json_schema.schema, 'openai-responses': () => b.text.format.schema, gemini: () => b.generationConfig.responseSchema }
    const want = up.protocol === 'gemini' ? GEMINI_SCHEMA : AS_JSON_SCHEMA
    expect(tool[up.protocol]()).toEqual(want)
    expect(format[up.protocol]()).toEqual(want)
  })
})
