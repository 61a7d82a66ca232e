/**
 * Tools × every client × every upstream × {non-stream, stream}: definitions with their JSON schemas intact,
 * tool choice (auto / none / required / one named tool) in each vendor's form, single and parallel calls back
 * to the client, and tool results (errors included) paired with their calls in each vendor's own items.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import type { ProtocolId } from '../../../src/protocols/types'
import type { RelayEnv } from '../../helpers/relay-env'
import { ask, FINISH, PAIRS, sentTo, settled, type Spec, type ToolChoice } from './features-kit'
import { startMatrixEnv, UPSTREAMS } from './harness'

let env: RelayEnv
beforeAll(async () => {
  env = await startMatrixEnv()
})
afterAll(() => env.stop())
beforeEach(() => {
  env.upstream.reset()
  env.outcomes.length = 0
})

/** A schema with what converters like to lose: nesting, enums, arrays, descriptions, defaults, additionalProperties. */
const RICH = {
  type: 'object',
  properties: {
    city: { type: 'string', description: 'City name' },
    units: { type: 'string', enum: ['metric', 'imperial'], default: 'metric' },
    days: { type: 'integer', minimum: 1, maximum: 7 },
    fields: { type: 'array', items: { type: 'string' }, minItems: 1 },
    where: { type: 'object', properties: { lat: { type: 'number' }, lon: { type: 'number' } }, required: ['lat', 'lon'], additionalProperties: false },
  },
  required: ['city'],
  additionalProperties: false,
}
const TOOLS = [
  { name: 'get_weather', description: 'Weather for a city', parameters: RICH },
  { name: 'get_time', description: 'Time in a zone', parameters: { type: 'object', properties: { tz: { type: 'string' } }, required: ['tz'] } },
]
const ASK: Spec = { tools: TOOLS, messages: [{ role: 'user', text: 'Weather and time in Paris?' }] }

/** Tool definitions as the vendor received them: name, description, schema. */
function toolDefs(protocol: ProtocolId, b: any): { name: string; description: string; schema: unknown }[] {
  switch (protocol) {
    case 'anthropic':
      return b.tools.map((t: any) => ({ name: t.name, description: t.description, schema: t.input_schema }))
    case 'openai-chat':
      return b.tools.map((t: any) => (expect(t.type).toBe('function'), { name: t.function.name, description: t.function.description, schema: t.function.parameters }))
    case 'openai-responses':
      return b.tools.map((t: any) => (expect(t.type).toBe('function'), { name: t.name, description: t.description, schema: t.parameters }))
    case 'gemini':
      return b.tools[0].functionDeclarations.map((d: any) => ({ name: d.name, description: d.description, schema: d.parametersJsonSchema }))
  }
}

/** The vendor's own tool-choice value for each neutral choice. */
function choiceOf(protocol: ProtocolId, b: any): unknown {
  switch (protocol) {
    case 'anthropic':
      return b.tool_choice
    case 'openai-chat':
    case 'openai-responses':
      return b.tool_choice
    case 'gemini':
      return b.toolConfig?.functionCallingConfig
  }
}
const CHOICES: { name: string; choice: ToolChoice; wire: Record<ProtocolId, unknown> }[] = [
  { name: 'auto', choice: 'auto', wire: { anthropic: { type: 'auto' }, 'openai-chat': 'auto', 'openai-responses': 'auto', gemini: { mode: 'AUTO' } } },
  { name: 'none', choice: 'none', wire: { anthropic: { type: 'none' }, 'openai-chat': 'none', 'openai-responses': 'none', gemini: { mode: 'NONE' } } },
  { name: 'required', choice: 'required', wire: { anthropic: { type: 'any' }, 'openai-chat': 'required', 'openai-responses': 'required', gemini: { mode: 'ANY' } } },
  {
    name: 'get_time', choice: { name: 'get_time' },
    wire: {
      anthropic: { type: 'tool', name: 'get_time' }, 'openai-chat': { type: 'function', function: { name: 'get_time' } },
      'openai-responses': { type: 'function', name: 'get_time' }, gemini: { mode: 'ANY', allowedFunctionNames: ['get_time'] },
    },
  },
]

const CALLS = [
  { id: 'call_w1', name: 'get_weather', args: { city: 'Paris', units: 'metric', where: { lat: 48.85, lon: 2.35 } } },
  { id: 'call_t2', name: 'get_time', args: { tz: 'Europe/Paris' } },
]

/** Replayed calls and results as the vendor received them. */
function exchange(protocol: ProtocolId, b: any) {
  const calls: { id?: string; name: string; args: unknown }[] = []
  const results: { id?: string; name?: string; text: string; error: boolean }[] = []
  const text = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v))
  switch (protocol) {
    case 'anthropic':
      for (const m of b.messages)
        for (const c of Array.isArray(m.content) ? m.content : []) {
          if (c.type === 'tool_use') calls.push({ id: c.id, name: c.name, args: c.input })
          if (c.type === 'tool_result') results.push({ id: c.tool_use_id, text: text(c.content), error: c.is_error === true })
        }
      break
    case 'openai-chat':
      for (const m of b.messages) {
        for (const c of m.tool_calls ?? []) calls.push({ id: c.id, name: c.function.name, args: JSON.parse(c.function.arguments) })
        if (m.role === 'tool') results.push({ id: m.tool_call_id, text: text(m.content), error: /^error/i.test(text(m.content)) })
      }
      break
    case 'openai-responses':
      for (const i of b.input) {
        if (i.type === 'function_call') calls.push({ id: i.call_id, name: i.name, args: JSON.parse(i.arguments) })
        if (i.type === 'function_call_output') results.push({ id: i.call_id, text: text(i.output), error: /^error/i.test(text(i.output)) })
      }
      break
    case 'gemini':
      for (const c of b.contents)
        for (const p of c.parts) {
          if (p.functionCall) calls.push({ name: p.functionCall.name, args: p.functionCall.args })
          if (p.functionResponse) {
            const r = p.functionResponse.response
            results.push({ name: p.functionResponse.name, text: text(r.error ?? r.output ?? r), error: r.error !== undefined })
          }
        }
      break
  }
  return { calls, results }
}

/** Clients whose wire can mark a tool result as an error (Anthropic is_error, Gemini response.error). */
const carriesError = (client: ProtocolId) => client === 'anthropic' || client === 'gemini'

describe.each(UPSTREAMS)('→ $protocol upstream', (up) => {
  describe.each(PAIRS)('$client client, stream: $stream', ({ client, stream }) => {
    test('tool definitions arrive with names, descriptions and JSON schemas intact', async () => {
      env.upstream.setBehavior({ text: 'Which city?' })
      const a = await ask(env, client, up.model, ASK, stream)
      expect(a.status).toBe(200)
      expect(toolDefs(up.protocol, sentTo(env, up.protocol).json)).toEqual(TOOLS.map((t) => ({ name: t.name, description: t.description, schema: t.parameters })))
    })

    test.each(CHOICES)('tool choice $name in the vendor form', async ({ choice, wire }) => {
      env.upstream.setBehavior({ text: 'Ok.' })
      const a = await ask(env, client, up.model, { ...ASK, toolChoice: choice }, stream)
      expect(a.status).toBe(200)
      expect(choiceOf(up.protocol, sentTo(env, up.protocol).json)).toEqual(wire[up.protocol])
    })

    test.skipIf(client === 'gemini')('one call at most: the vendor switch (Gemini has none: a warning)', async () => {
      env.upstream.setBehavior({ text: 'Ok.' })
      const a = await ask(env, client, up.model, { ...ASK, parallel: false }, stream)
      expect(a.status).toBe(200)
      const b = sentTo(env, up.protocol).json
      if (up.protocol === 'anthropic') expect(b.tool_choice).toEqual({ type: 'auto', disable_parallel_tool_use: true })
      if (up.protocol === 'openai-chat' || up.protocol === 'openai-responses') expect(b.parallel_tool_calls).toBe(false)
      if (up.protocol === 'gemini') expect((await settled(env)).join()).toContain('Gemini has no switch for parallel calls')
    })

    test('a single tool call comes back with its name and arguments and the tool stop reason', async () => {
      env.upstream.setBehavior({ toolCalls: [{ name: 'get_weather', arguments: CALLS[0]!.args }] })
      const a = await ask(env, client, up.model, ASK, stream)
      expect(a.status).toBe(200)
      expect(a.calls.map((c) => ({ name: c.name, args: c.args }))).toEqual([{ name: 'get_weather', args: CALLS[0]!.args }])
      expect(a.finish).toBe(FINISH[client].tool)
    })

    test('parallel tool calls come back in order, each with its own id', async () => {
      env.upstream.setBehavior({ text: 'Checking.', toolCalls: CALLS.map((c) => ({ name: c.name, arguments: c.args, fragments: 4 })) })
      const a = await ask(env, client, up.model, ASK, stream)
      expect(a.status).toBe(200)
      expect(a.text).toBe('Checking.')
      expect(a.calls.map((c) => ({ name: c.name, args: c.args }))).toEqual(CALLS.map((c) => ({ name: c.name, args: c.args })))
      if (client !== 'gemini') expect(new Set(a.calls.map((c) => c.id)).size).toBe(2)
      expect(a.finish).toBe(FINISH[client].tool)
    })

    test('tool results (one an error) reach the vendor paired with their calls', async () => {
      env.upstream.setBehavior({ text: 'Sunny, 9:00.' })
      const spec: Spec = {
        tools: TOOLS,
        messages: [
          ASK.messages[0]!,
          { role: 'assistant', calls: CALLS },
          { role: 'tool', results: [{ id: 'call_w1', name: 'get_weather', content: '{"sky":"clear"}' }, { id: 'call_t2', name: 'get_time', content: 'zone database unavailable', isError: true }] },
        ],
      }
      const a = await ask(env, client, up.model, spec, stream)
      expect(a.status).toBe(200)
      expect(a.text).toBe('Sunny, 9:00.')
      const { calls, results } = exchange(up.protocol, sentTo(env, up.protocol).json)
      expect(calls.map((c) => ({ name: c.name, args: c.args }))).toEqual(CALLS.map((c) => ({ name: c.name, args: c.args })))
      expect(results).toHaveLength(2)
      if (up.protocol === 'gemini') expect(results.map((r) => r.name)).toEqual(['get_weather', 'get_time'])
      else expect(results.map((r) => r.id)).toEqual(calls.map((c) => c.id)) // each result names its call
      expect(results[0]!.text).toContain('clear')
      expect(results[0]!.error).toBe(false)
      expect(results[1]!.text).toContain('zone database unavailable')
      expect(results[1]!.error).toBe(carriesError(client))
    })
  })
})
