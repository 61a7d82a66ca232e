/**
 * What Bedrock and Vertex receive, for every client × {non-stream, stream}: Converse content blocks (system, text,
 * images, toolUse / toolResult paired by id, alternating turns), toolConfig with each tool's JSON schema and the
 * tool choice, inferenceConfig, and the reasoning fields of each model family (Nova `reasoningConfig`, gpt-oss
 * `reasoning_effort`, none for Llama); the invoke body for Claude on Bedrock and the rawPredict body on Vertex,
 * converted from every client, in the shape each vendor accepts. The fakes refuse what the vendor refuses.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import type { ProtocolId } from '../../../src/protocols/types'
import { ask, clientRequest, FINISH, PAIRS, settled, type Spec, type ToolChoice } from './features-kit'
import { resetFakes, startMatrixEnv, TOOLS, type MatrixEnv } from './harness'
import { VENDOR_MODELS } from './vendors'

let env: MatrixEnv
beforeAll(async () => {
  env = await startMatrixEnv()
})
afterAll(() => env.stop())
beforeEach(() => {
  resetFakes(env)
  env.outcomes.length = 0
})

const converse = () => {
  const rec = env.vendors.bedrock.requests.at(-1)
  if (!rec?.operation?.startsWith('converse')) throw new Error(`no Converse request (last: ${rec?.operation})`)
  return rec.json
}
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=='
const CALLS = [
  { id: 'call_w1', name: 'get_weather', args: { city: 'Paris' } },
  { id: 'call_t1', name: 'get_time', args: { tz: 'Europe/Paris' } },
]
const ROUND_TRIP: Spec = {
  tools: TOOLS,
  messages: [
    { role: 'user', text: 'Weather and time in Paris?' },
    { role: 'assistant', calls: CALLS },
    { role: 'tool', results: [{ id: 'call_w1', name: 'get_weather', content: 'sunny, 21 C' }, { id: 'call_t1', name: 'get_time', content: 'unknown zone', isError: true }] },
  ],
}

/** The client's own way of asking for reasoning at about `effort`. */
function withReasoning(client: ProtocolId, body: Record<string, any>, effort: 'low' | 'high'): void {
  const budget = effort === 'low' ? 2048 : 20000
  if (client === 'anthropic') Object.assign(body, { max_tokens: 32000, thinking: { type: 'enabled', budget_tokens: budget } })
  else if (client === 'openai-chat') body.reasoning_effort = effort
  else if (client === 'openai-responses') body.reasoning = { effort }
  else body.generationConfig = { ...body.generationConfig, thinkingConfig: { includeThoughts: true, thinkingBudget: budget } }
}

async function askRaw(client: ProtocolId, model: string, spec: Spec, stream: boolean, patch: (body: Record<string, any>) => void) {
  const req = clientRequest(client, model, env.key, spec, stream)
  patch(req.body)
  const res = await env.app.fetch(req.path, { method: 'POST', headers: req.headers, body: JSON.stringify(req.body) })
  return { status: res.status, text: await res.text() }
}

describe.each(PAIRS)('Bedrock Converse from $client (stream: $stream)', ({ client, stream }) => {
  test('system, text and sampling: system blocks, text blocks, inferenceConfig; no model or stream in the body', async () => {
    env.vendors.bedrock.setBehavior({ text: 'Brief.' })
    const spec: Spec = { system: 'Be brief.', messages: [{ role: 'user', text: 'Hi there' }], temperature: 0.3, topP: 0.9, maxTokens: 300, stop: client === 'openai-responses' ? undefined : ['END'] }
    const answer = await ask(env, client, VENDOR_MODELS.nova, spec, stream)
    expect(answer.status).toBe(200)
    expect(answer.text).toBe('Brief.')
    expect(answer.finish).toBe(FINISH[client].stop)
    const b = converse()
    expect(b.system).toEqual([{ text: 'Be brief.' }])
    expect(b.messages).toEqual([{ role: 'user', content: [{ text: 'Hi there' }] }])
    expect(b.inferenceConfig).toEqual({ maxTokens: 300, temperature: 0.3, topP: 0.9, ...(spec.stop ? { stopSequences: ['END'] } : {}) })
    expect(Object.keys(b).sort()).toEqual(['inferenceConfig', 'messages', 'system'])
  })

  test('tools: toolConfig with each schema intact, the tool choice in Converse form, calls back to the client', async () => {
    const choices: [ToolChoice, unknown][] = [['auto', { auto: {} }], ['required', { any: {} }], [{ name: 'get_time' }, { tool: { name: 'get_time' } }]]
    for (const [choice, wire] of choices) {
      env.vendors.bedrock.setBehavior({ toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }, { name: 'get_time', arguments: { tz: 'Europe/Paris' } }] })
      const answer = await ask(env, client, VENDOR_MODELS.nova, { tools: TOOLS, toolChoice: choice, messages: [{ role: 'user', text: 'Weather and time?' }] }, stream)
      expect(answer.status).toBe(200)
      expect(answer.calls.map((c) => ({ name: c.name, args: c.args }))).toEqual([{ name: 'get_weather', args: { city: 'Paris' } }, { name: 'get_time', args: { tz: 'Europe/Paris' } }])
      expect(answer.finish).toBe(FINISH[client].tool)
      const config = converse().toolConfig
      expect(config.tools).toEqual(TOOLS.map((t) => ({ toolSpec: { name: t.name, description: t.description, inputSchema: { json: t.parameters } } })))
      expect(config.toolChoice).toEqual(wire)
    }
  })

  test('a tool round trip: toolUse blocks in the assistant turn, toolResult blocks paired by id (an error marked where the client can say so) in the next user turn', async () => {
    env.vendors.bedrock.setBehavior({ text: 'Sunny.' })
    const answer = await ask(env, client, VENDOR_MODELS.nova, ROUND_TRIP, stream)
    expect(answer.status).toBe(200)
    const [user, assistant, results, ...rest] = converse().messages
    expect(rest).toEqual([])
    expect(user).toEqual({ role: 'user', content: [{ text: 'Weather and time in Paris?' }] })
    expect(assistant.role).toBe('assistant')
    const uses = assistant.content.map((c: any) => c.toolUse)
    expect(uses.map((u: any) => ({ name: u.name, input: u.input }))).toEqual(CALLS.map((c) => ({ name: c.name, input: c.args })))
    expect(results.role).toBe('user')
    const got = results.content.map((c: any) => c.toolResult)
    expect(got.map((r: any) => r.toolUseId)).toEqual(uses.map((u: any) => u.toolUseId))
    expect(JSON.stringify(got[0].content)).toContain('sunny, 21 C')
    expect(JSON.stringify(got[1].content)).toContain('unknown zone')
    // Anthropic's is_error and Gemini's `{error: …}` response mark a failed call; chat and Responses results are plain text
    if (client === 'anthropic' || client === 'gemini') expect(got[1].status).toBe('error')
    else expect(got[1].status).toBeUndefined()
    // Gemini's calls carry no ids: the gateway makes them, the pairing above still holds
    if (client !== 'gemini') expect(uses.map((u: any) => u.toolUseId)).toEqual(['call_w1', 'call_t1'])
  })

  test('an inline image is an image block; a public URL is refused naming the part, nothing sent', async () => {
    env.vendors.bedrock.setBehavior({ text: 'A pixel.' })
    const inline = await ask(env, client, VENDOR_MODELS.nova, { messages: [{ role: 'user', text: 'What is this?', images: [{ kind: 'base64', data: PNG, mediaType: 'image/png' }] }] }, stream)
    expect(inline.status).toBe(200)
    expect(converse().messages[0].content).toEqual([{ text: 'What is this?' }, { image: { format: 'png', source: { bytes: PNG } } }])
    const sent = env.vendors.bedrock.requests.length
    const byUrl = await ask(env, client, VENDOR_MODELS.nova, { messages: [{ role: 'user', text: 'And this?', images: [{ kind: 'url', url: 'https://example.com/cat.png', mediaType: 'image/png' }] }] }, stream)
    expect(byUrl.status).toBe(400)
    expect(byUrl.raw).toContain('cannot fetch media by URL')
    expect(env.vendors.bedrock.requests.length).toBe(sent)
  })

  test('reasoning fields per family: Nova reasoningConfig, gpt-oss reasoning_effort, nothing for Llama (a warning says so)', async () => {
    env.vendors.bedrock.setBehavior({ reasoning: ['Hmm.'], text: 'Done.' })
    const cases: [string, 'low' | 'high', unknown][] = [
      [VENDOR_MODELS.nova, 'low', { reasoningConfig: { type: 'enabled', maxReasoningEffort: 'low' } }],
      [VENDOR_MODELS.nova, 'high', { reasoningConfig: { type: 'enabled', maxReasoningEffort: 'high' } }],
      [VENDOR_MODELS.gptOss, 'high', { reasoning_effort: 'high' }],
      [VENDOR_MODELS.llama, 'high', undefined],
    ]
    for (const [model, effort, fields] of cases) {
      env.outcomes.length = 0
      const res = await askRaw(client, model, { messages: [{ role: 'user', text: 'Think.' }] }, stream, (b) => withReasoning(client, b, effort))
      expect(res.status).toBe(200)
      expect(converse().additionalModelRequestFields).toEqual(fields)
      if (!fields) expect((await settled(env)).join('\n')).toContain('takes no reasoning settings')
      else expect(res.text).toContain('Hmm.') // the reasoning reaches the client in its own field
    }
  })
})

describe.each(PAIRS)('Claude on Bedrock (invoke) and on Vertex (rawPredict) from $client (stream: $stream)', ({ client, stream }) => {
  const spec: Spec = { system: 'Be brief.', tools: TOOLS, toolChoice: 'auto', messages: [{ role: 'user', text: 'Weather?' }], maxTokens: 500 }

  test('invoke: Anthropic body with bedrock-2023-05-31, no model or stream, only the fields Bedrock takes; the operation by stream', async () => {
    env.vendors.bedrock.setBehavior({ text: 'From Bedrock.' })
    const answer = await ask(env, client, VENDOR_MODELS.bedrockClaude, spec, stream)
    expect(answer.status).toBe(200)
    expect(answer.text).toBe('From Bedrock.')
    const rec = env.vendors.bedrock.requests.at(-1)!
    expect(rec.operation).toBe(stream ? 'invoke-with-response-stream' : 'invoke')
    expect(rec.model).toBe(VENDOR_MODELS.bedrockClaudeId)
    expect(rec.auth).toBe('sigv4')
    const b = rec.json
    expect(b.anthropic_version).toBe('bedrock-2023-05-31')
    for (const key of Object.keys(b)) expect(['anthropic_version', 'anthropic_beta', 'max_tokens', 'messages', 'system', 'tools', 'tool_choice', 'thinking', 'temperature', 'top_p', 'top_k', 'stop_sequences']).toContain(key)
    expect(b.max_tokens).toBe(500)
    expect(b.tools.map((t: any) => t.name)).toEqual(['get_weather', 'get_time'])
    expect(b.tool_choice).toEqual({ type: 'auto' })
  })

  test('rawPredict: Anthropic body with vertex-2023-10-16, no model, stream in the body for streamRawPredict', async () => {
    env.vendors.vertex.setBehavior({ text: 'From Vertex.' })
    const answer = await ask(env, client, VENDOR_MODELS.vertexClaude, spec, stream)
    expect(answer.status).toBe(200)
    expect(answer.text).toBe('From Vertex.')
    const rec = env.vendors.vertex.requests.at(-1)!
    expect(rec).toMatchObject({ publisher: 'anthropic', vertexModel: VENDOR_MODELS.vertexClaudeId, action: stream ? 'streamRawPredict' : 'rawPredict' })
    expect(rec.json.anthropic_version).toBe('vertex-2023-10-16')
    expect(rec.json.model).toBeUndefined()
    expect(rec.json.stream === true).toBe(stream)
    expect(rec.json.max_tokens).toBe(500)
  })
})
