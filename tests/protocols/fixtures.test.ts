import { describe, expect, test } from 'bun:test'
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { UnsupportedFeatureError, type IrRequest } from '../../src/ir/index.ts'
import { protocols, type ProtocolId } from '../../src/protocols/index.ts'

const dir = join(import.meta.dir, '../fixtures/clients')
const files = readdirSync(dir).filter((f) => f.endsWith('.json'))

function load(name: string): { url: string; body: Record<string, unknown> } {
  return require(join(dir, name))
}

function protocolFor(url: string): ProtocolId {
  if (url.startsWith('/v1/messages')) return 'anthropic'
  if (url.startsWith('/v1/chat/completions')) return 'openai-chat'
  if (url.startsWith('/v1/responses')) return 'openai-responses'
  throw new Error(`no protocol for ${url}`)
}

function decode(name: string): { id: ProtocolId; req: IrRequest; warnings: string[] } {
  const f = load(name)
  const id = protocolFor(f.url)
  const { value, warnings } = protocols[id].decodeRequest(f.body)
  return { id, req: value, warnings }
}

describe('every captured client request decodes', () => {
  test('there are fixtures', () => expect(files.length).toBe(14))
  for (const file of files) {
    test(file, () => {
      const { req, id } = decode(file)
      const f = load(file)
      expect(req.model).toBe(f.body.model as string)
      expect(req.messages.length).toBeGreaterThan(0)
      expect(req.stream).toBe(f.body.stream === true)
      // never an empty text part
      for (const m of req.messages) if (m.role !== 'opaque') for (const p of m.content) if (p.type === 'text') expect(p.text).not.toBe('')
      // same-protocol re-encode keeps the model and every tool
      const { value } = protocols[id].encodeRequest(req)
      expect(value.model).toBe(f.body.model)
      const tools = (f.body.tools as unknown[] | undefined) ?? []
      expect(((value.tools as unknown[] | undefined) ?? []).length).toBe(tools.length)
    })
  }
})

describe('fixture details', () => {
  test('claude-code-first-request: system blocks with cache_control, tools, thinking, metadata', () => {
    const { req } = decode('claude-code-first-request.json')
    expect(req.system.length).toBe(3)
    expect(req.system[0]!.providerOptions).toBeUndefined()
    expect(req.system[1]!.providerOptions).toEqual({ anthropic: { cache_control: { type: 'ephemeral' } } })
    expect(req.tools.length).toBe(24)
    expect(req.tools.every((t) => t.kind === 'function')).toBe(true)
    expect(req.reasoning).toEqual({ enabled: true, budgetTokens: 31999 })
    expect(req.user).toStartWith('{"device_id"')
    expect(req.providerOptions.anthropic?.context_management).toEqual({ edits: [{ type: 'clear_thinking_20251015', keep: 'all' }] })
    expect(req.providerOptions.anthropic?.metadata).toBeDefined()
  })

  test('claude-code-default-model: adaptive thinking, effort, role:system turn inside messages', () => {
    const { req } = decode('claude-code-default-model.json')
    expect(req.reasoning).toEqual({ enabled: true, adaptive: true, effort: 'high' })
    expect(req.messages.map((m) => m.role)).toEqual(['user', 'system'])
    const out = protocols.anthropic.encodeRequest(req).value
    expect(out.thinking).toEqual({ type: 'adaptive' })
    expect(out.output_config).toEqual({ effort: 'high' })
    expect((out.messages as { role: string }[]).map((m) => m.role)).toEqual(['user', 'system'])
    // to chat: the system turn stays a system message at its position
    const chat = protocols['openai-chat'].encodeRequest(req).value
    expect((chat.messages as { role: string }[]).map((m) => m.role)).toEqual(['system', 'user', 'system'])
    expect(chat.reasoning_effort).toBe('high')
  })

  test('claude-code-tool-result-followup: tool_use then tool_result with is_error false and cache_control', () => {
    const { req } = decode('claude-code-tool-result-followup.json')
    const [, assistant, tool] = req.messages
    expect(assistant).toEqual({
      role: 'assistant',
      content: [
        { type: 'text', text: 'Running a tool.' },
        { type: 'tool-call', id: 'toolu_4336adcd253f88ea20c0abc7', name: 'Bash', arguments: expect.stringContaining('"command":"echo mock-tool-ran"') },
      ],
    })
    expect(tool).toEqual({
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          callId: 'toolu_4336adcd253f88ea20c0abc7',
          content: [{ type: 'text', text: 'mock-tool-ran' }],
          providerOptions: { anthropic: { cache_control: { type: 'ephemeral' } } },
        },
      ],
    })
    const out = protocols.anthropic.encodeRequest(req).value
    const last = (out.messages as { role: string; content: unknown[] }[]).at(-1)!
    expect(last).toEqual({
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: 'toolu_4336adcd253f88ea20c0abc7', content: 'mock-tool-ran', cache_control: { type: 'ephemeral' } }],
    })
  })

  test('claude-code-thinking-echo: signed thinking survives to Anthropic, is dropped with a warning elsewhere', () => {
    const { req } = decode('claude-code-thinking-echo.json')
    const assistant = req.messages[1]!
    expect(assistant.role).toBe('assistant')
    expect(assistant.role === 'assistant' && assistant.content[0]).toEqual({
      type: 'reasoning',
      text: 'Let me think about this.',
      signature: 'mock-signature-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx',
      origin: 'anthropic',
    })
    const a = protocols.anthropic.encodeRequest(req)
    const msgs = a.value.messages as { content: Record<string, unknown>[] }[]
    expect(msgs[1]!.content[0]).toEqual({ type: 'thinking', thinking: 'Let me think about this.', signature: 'mock-signature-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx' })
    const c = protocols['openai-chat'].encodeRequest(req)
    expect(c.warnings.some((w) => w.includes('reasoning from anthropic dropped'))).toBe(true)
    expect(JSON.stringify(c.value)).not.toContain('mock-signature')
    const r = protocols['openai-responses'].encodeRequest(req)
    expect(JSON.stringify(r.value)).not.toContain('mock-signature')
  })

  test('thinking blocks with signature "" are dropped with a warning', () => {
    const f = load('claude-code-thinking-echo.json')
    const body = structuredClone(f.body) as { messages: { content: { signature?: string }[] }[] }
    body.messages[1]!.content[0]!.signature = ''
    const { value, warnings } = protocols.anthropic.decodeRequest(body)
    expect(warnings).toEqual(['messages[1].content[0]: thinking block without signature dropped'])
    const a = value.messages[1]!
    expect(a.role === 'assistant' && a.content.map((p) => p.type)).toEqual(['text', 'tool-call'])
  })

  test('codex-responses-first-request: developer messages, ids, store/include/prompt_cache_key, namespace + web_search tools', () => {
    const { req } = decode('codex-responses-first-request.json')
    expect(req.system).toEqual([])
    expect(req.messages.map((m) => m.role)).toEqual(['system', 'system', 'user', 'user'])
    expect(req.messages[0]!.providerOptions).toEqual({ 'openai-responses': { id: 'msg_94c3b130-89f2-59fc-9d4f-cbbfb3ecc128', role: 'developer' } })
    const po = req.providerOptions['openai-responses']!
    expect(po.store).toBe(false)
    expect(po.include).toEqual(['reasoning.encrypted_content'])
    expect(po.prompt_cache_key).toBe('01a1fee0-5f85-7b10-ae5a-254bb19959d2')
    // the namespace's function tools become function tools that name their namespace
    expect(req.tools.filter((t) => t.kind === 'provider').map((t) => t.kind === 'provider' && t.type)).toEqual(['web_search'])
    expect(req.tools.filter((t) => t.kind === 'function' && t.namespace === 'multi_agent_v1').map((t) => t.name)).toEqual(['close_agent', 'resume_agent', 'send_input', 'spawn_agent', 'wait_agent'])
    // same protocol: byte-for-byte equal input items
    const out = protocols['openai-responses'].encodeRequest(req).value
    const f = load('codex-responses-first-request.json')
    expect(out.input).toEqual(f.body.input)
    expect(out.tools).toEqual(f.body.tools)
    expect(out.store).toBe(false)
    expect(out.prompt_cache_key).toBe(f.body.prompt_cache_key)
    // other protocols: namespace members are flat functions named <namespace>__<name>; hosted web_search is dropped
    const chat = protocols['openai-chat'].encodeRequest(req)
    const names = (chat.value.tools as { function: { name: string } }[]).map((t) => t.function.name)
    expect(names).toContain('multi_agent_v1__spawn_agent')
    expect(names).toContain('exec_command')
    expect(chat.warnings).toContain('tools[8]: hosted web_search tool is not available on chat upstreams, dropped')
    for (const id of ['anthropic', 'gemini'] as const) expect(JSON.stringify(protocols[id].encodeRequest(req).value)).toContain('"multi_agent_v1__spawn_agent"')
  })

  test('codex-responses-tool-followup: function_call + function_call_output', () => {
    const { req } = decode('codex-responses-tool-followup.json')
    const [call, result] = req.messages.slice(-2)
    expect(call).toEqual({
      role: 'assistant',
      content: [
        {
          type: 'tool-call',
          id: 'call_118da46820a5ca3630d4a2fa',
          name: 'exec_command',
          arguments: '{"cmd":"echo mock-tool-ran"}',
          providerOptions: { 'openai-responses': { id: 'fc_966a0bb6db0cf395e331f179', status: 'completed' } },
        },
      ],
    })
    expect(result!.role).toBe('tool')
    const out = protocols['openai-responses'].encodeRequest(req).value
    const f = load('codex-responses-tool-followup.json')
    expect((out.input as unknown[]).slice(-1)).toEqual((f.body.input as unknown[]).slice(-1))
    expect(out.input).toEqual(f.body.input)
  })

  test('codex-reasoning-echo: encrypted reasoning goes back to Responses only', () => {
    const { req } = decode('codex-reasoning-echo.json')
    const assistant = req.messages.find((m) => m.role === 'assistant')!
    expect(assistant.role === 'assistant' && assistant.content[0]).toEqual({
      type: 'reasoning',
      text: 'Thinking briefly.',
      origin: 'openai-responses',
      encrypted: 'gAAAAmockxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx',
      id: 'rs_39b314bdc98d137c9651ccf3',
    })
    const out = protocols['openai-responses'].encodeRequest(req).value
    expect((out.input as Record<string, unknown>[]).find((i) => i.type === 'reasoning')).toEqual({
      type: 'reasoning',
      id: 'rs_39b314bdc98d137c9651ccf3',
      summary: [{ type: 'summary_text', text: 'Thinking briefly.' }],
      encrypted_content: 'gAAAAmockxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx',
    })
  })

  test('codex-tui-title-structured-output: text.format json_schema', () => {
    const { req } = decode('codex-tui-title-structured-output.json')
    expect(req.responseFormat?.type).toBe('json_schema')
    expect(req.responseFormat?.type === 'json_schema' && req.responseFormat.name).toBe('codex_output_schema')
    expect(req.responseFormat?.type === 'json_schema' && req.responseFormat.strict).toBe(true)
    const chat = protocols['openai-chat'].encodeRequest(req).value
    expect((chat.response_format as { type: string }).type).toBe('json_schema')
    expect((chat.response_format as { json_schema: { name: string; strict: boolean } }).json_schema.name).toBe('codex_output_schema')
    const anth = protocols.anthropic.encodeRequest(req).value
    expect((anth.output_config as { format: { type: string } }).format.type).toBe('json_schema')
    const gem = protocols.gemini.encodeRequest(req).value
    expect((gem.generationConfig as { responseMimeType: string }).responseMimeType).toBe('application/json')
  })

  test('codex-catalog-model-responses-lite: passes through to Responses, refused elsewhere naming input[0]', () => {
    const { req } = decode('codex-catalog-model-responses-lite.json')
    expect(req.messages[0]).toMatchObject({ role: 'opaque', type: 'additional_tools', protocol: 'openai-responses' })
    const f = load('codex-catalog-model-responses-lite.json')
    const out = protocols['openai-responses'].encodeRequest(req).value
    expect(out.input).toEqual(f.body.input)
    expect(out.reasoning).toEqual(f.body.reasoning)
    expect(out.text).toEqual(f.body.text)
    expect(out.client_metadata).toEqual(f.body.client_metadata)
    try {
      protocols['openai-chat'].encodeRequest(req)
      throw new Error('should have thrown')
    } catch (e) {
      expect(e).toBeInstanceOf(UnsupportedFeatureError)
      expect((e as UnsupportedFeatureError).param).toBe('input[0]')
      expect((e as Error).message).toContain('additional_tools')
    }
  })

  test('opencode-chat-tool-followup: assistant tool_calls + tool turn, include_usage', () => {
    const { req } = decode('opencode-chat-tool-followup.json')
    expect(req.includeUsage).toBe(true)
    expect(req.maxOutputTokens).toBe(32000)
    expect(req.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool'])
    const anth = protocols.anthropic.encodeRequest(req).value
    expect(anth.system).toEqual([{ type: 'text', text: expect.stringMatching(/^You are opencode/) }])
    const msgs = anth.messages as { role: string; content: Record<string, unknown>[] }[]
    expect(msgs.map((m) => m.role)).toEqual(['user', 'assistant', 'user'])
    expect(msgs[1]!.content).toEqual([
      { type: 'tool_use', id: 'call_966795b88d62358e28ee4115', name: 'bash', input: { command: 'echo mock-tool-ran', description: 'Echo a marker' } },
    ])
    expect(msgs[2]!.content).toEqual([{ type: 'tool_result', tool_use_id: 'call_966795b88d62358e28ee4115', content: 'mock-tool-ran\n' }])
    const gem = protocols.gemini.encodeRequest(req).value
    expect((gem.contents as { role: string }[]).map((c) => c.role)).toEqual(['user', 'model', 'user'])
    expect((gem.contents as { parts: unknown[] }[])[2]!.parts).toEqual([{ functionResponse: { name: 'bash', response: { output: 'mock-tool-ran\n' } } }])
  })

  test('opencode-responses: flat function tools with strict, max_output_tokens, reasoning', () => {
    const { req } = decode('opencode-responses.json')
    expect(req.maxOutputTokens).toBe(32000)
    expect(req.reasoning).toEqual({ effort: 'medium', enabled: true, summary: 'auto' })
    expect(req.tools[0]).toMatchObject({ kind: 'function', name: 'apply_patch', strict: false })
    const anth = protocols.anthropic.encodeRequest(req)
    expect(anth.value.thinking).toEqual({ type: 'enabled', budget_tokens: 10000 })
    expect(anth.value.system).toEqual([{ type: 'text', text: expect.stringMatching(/^You are OpenCode/) }])
  })

  test('opencode-anthropic: tool_choice auto and eager_input_streaming kept per tool', () => {
    const { req } = decode('opencode-anthropic.json')
    expect(req.toolChoice).toEqual({ type: 'auto' })
    expect(req.tools[0]).toMatchObject({ kind: 'function', name: 'bash', providerOptions: { anthropic: { eager_input_streaming: true } } })
    const out = protocols.anthropic.encodeRequest(req).value
    expect((out.tools as Record<string, unknown>[])[0]!.eager_input_streaming).toBe(true)
    const chat = protocols['openai-chat'].encodeRequest(req).value
    expect(JSON.stringify(chat.tools)).not.toContain('eager_input_streaming')
  })
})
