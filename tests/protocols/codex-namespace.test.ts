import { describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { clientToolIndex, emptyUsage, flatToolName, toolNames, UnsupportedFeatureError, type FunctionTool, type StreamEvent, type Tool } from '../../src/ir/index.ts'
import { protocols } from '../../src/protocols/index.ts'
import { parseSseText } from '../../src/protocols/sse.ts'

const codex = JSON.parse(readFileSync(join(import.meta.dir, '../fixtures/clients/codex-responses-first-request.json'), 'utf8')).body
const fn = (name: string, namespace?: string): FunctionTool => ({ kind: 'function', name, parameters: { type: 'object' }, ...(namespace ? { namespace } : {}) })
const VENDOR_NAME = /^[a-zA-Z0-9_-]{1,64}$/

describe('flat names for namespaced tools', () => {
  test('<namespace>__<name> when it fits; plain tools keep their names', () => {
    const names = toolNames([fn('exec_command'), fn('spawn_agent', 'multi_agent_v1')])
    expect(names.wire(undefined, 'exec_command')).toBe('exec_command')
    expect(names.wire('multi_agent_v1', 'spawn_agent')).toBe('multi_agent_v1__spawn_agent')
    expect(names.parse('multi_agent_v1__spawn_agent')).toEqual({ name: 'spawn_agent', namespace: 'multi_agent_v1' })
    expect(names.parse('exec_command')).toEqual({ name: 'exec_command' })
    expect(names.call({ name: 'spawn_agent', namespace: 'multi_agent_v1' })).toBe('multi_agent_v1__spawn_agent')
  })

  test('too long or with characters vendors refuse: cut, hashed, still reversible and within 64 [a-zA-Z0-9_-]', () => {
    const ns = 'mcp.server/with spaces'
    const long = 'a'.repeat(70)
    const tools = [fn(long, ns), fn('read', ns), fn('read', 'other')]
    const names = toolNames(tools)
    const wires = tools.map((t) => names.wire(t.kind === 'function' ? t.namespace : undefined, t.name))
    for (const w of wires) expect(w).toMatch(VENDOR_NAME)
    expect(new Set(wires).size).toBe(3)
    expect(wires.map((w) => names.parse(w))).toEqual([
      { name: long, namespace: ns },
      { name: 'read', namespace: ns },
      { name: 'read', namespace: 'other' },
    ])
    expect(flatToolName(ns, long)).toBe(flatToolName(ns, long)) // deterministic
  })

  test('a flat name that collides with a plain tool gets another name', () => {
    const names = toolNames([fn('ns__x'), fn('x', 'ns')])
    const wire = names.wire('ns', 'x')
    expect(wire).not.toBe('ns__x')
    expect(wire).toMatch(VENDOR_NAME)
    expect(names.parse(wire)).toEqual({ name: 'x', namespace: 'ns' })
    expect(names.parse('ns__x')).toEqual({ name: 'ns__x' })
  })

  test('clientToolIndex counts a namespace once', () => {
    const tools: Tool[] = [fn('a'), fn('m1', 'ns'), fn('m2', 'ns'), fn('m3', 'ns'), { kind: 'provider', protocol: 'openai-responses', type: 'custom', raw: {} }]
    expect([0, 1, 2, 3, 4].map((i) => clientToolIndex(tools, i))).toEqual([0, 1, 1, 1, 2])
  })
})

describe('Codex requests with a namespace tool', () => {
  const { value: req } = protocols['openai-responses'].decodeRequest(codex)
  const members = (codex.tools as any[]).find((t) => t.type === 'namespace').tools as any[]

  test('decode: one function tool per member, naming the namespace; Responses re-encodes the namespace as sent', () => {
    const decoded = req.tools.filter((t): t is FunctionTool => t.kind === 'function' && t.namespace === 'multi_agent_v1')
    expect(decoded.map((t) => t.name)).toEqual(members.map((m) => m.name))
    expect(decoded.map((t) => t.parameters)).toEqual(members.map((m) => m.parameters))
    expect(protocols['openai-responses'].encodeRequest(req).value.tools).toEqual(codex.tools)
  })

  test('chat, Anthropic, Gemini: members are flat functions with their schemas; hosted web_search dropped with a warning', () => {
    const chat = protocols['openai-chat'].encodeRequest(req)
    const chatTools = (chat.value.tools as any[]).map((t) => t.function)
    for (const m of members) expect(chatTools.find((t) => t.name === `multi_agent_v1__${m.name}`)).toEqual({ name: `multi_agent_v1__${m.name}`, description: m.description, parameters: m.parameters, strict: false })
    expect(chat.warnings.some((w) => w.startsWith('tools[8]: hosted web_search'))).toBe(true)
    const anth = protocols.anthropic.encodeRequest(req)
    expect((anth.value.tools as any[]).map((t) => t.name)).toContain('multi_agent_v1__wait_agent')
    expect(JSON.stringify(anth.value.tools)).not.toContain('web_search')
    const gem = protocols.gemini.encodeRequest(req)
    const decls = (gem.value.tools as any[]).flatMap((t) => t.functionDeclarations ?? [])
    expect(decls.map((d) => d.name)).toContain('multi_agent_v1__close_agent')
    expect(JSON.stringify(gem.value.tools)).not.toContain('googleSearch') // refused next to functions by generateContent
    for (const body of [chat.value, anth.value, gem.value]) expect(JSON.stringify(body)).not.toContain('"namespace"')
  })

  test('a namespaced call in the history goes out under the flat name, and its result answers it', () => {
    const body = structuredClone(codex)
    body.input.push(
      { type: 'function_call', call_id: 'call_ns1', name: 'spawn_agent', namespace: 'multi_agent_v1', arguments: '{"message":"hi"}' },
      { type: 'function_call_output', call_id: 'call_ns1', output: 'agent-7' },
    )
    const { value } = protocols['openai-responses'].decodeRequest(body)
    const chat = protocols['openai-chat'].encodeRequest(value).value as any
    const call = chat.messages.find((m: any) => m.tool_calls)
    expect(call.tool_calls[0].function.name).toBe('multi_agent_v1__spawn_agent')
    expect(chat.messages.at(-1)).toEqual({ role: 'tool', tool_call_id: 'call_ns1', content: 'agent-7' })
    const gem = protocols.gemini.encodeRequest(value).value as any
    const parts = gem.contents.flatMap((c: any) => c.parts)
    expect(parts.find((p: any) => p.functionCall).functionCall.name).toBe('multi_agent_v1__spawn_agent')
    expect(parts.find((p: any) => p.functionResponse).functionResponse.name).toBe('multi_agent_v1__spawn_agent')
    const anth = protocols.anthropic.encodeRequest(value).value as any
    expect(anth.messages.flatMap((m: any) => m.content).find((b: any) => b.type === 'tool_use').name).toBe('multi_agent_v1__spawn_agent')
    // back to Responses: the namespace field as the client sent it
    const resp = protocols['openai-responses'].encodeRequest(value).value as any
    expect(resp.input.at(-2)).toEqual({ type: 'function_call', call_id: 'call_ns1', name: 'spawn_agent', arguments: '{"message":"hi"}', namespace: 'multi_agent_v1' })
  })

  test('the answer: a flat-named call becomes {name, namespace} in the Responses stream and body', () => {
    const events: StreamEvent[] = [
      { type: 'start', id: 'x', model: 'm' },
      { type: 'tool-input-start', id: 'call_1', name: 'multi_agent_v1__spawn_agent', index: 0 },
      { type: 'tool-input-delta', id: 'call_1', delta: '{"message":"hi"}' },
      { type: 'tool-input-end', id: 'call_1' },
      { type: 'tool-input-start', id: 'call_2', name: 'exec_command', index: 1 },
      { type: 'tool-input-delta', id: 'call_2', delta: '{"cmd":"ls"}' },
      { type: 'tool-input-end', id: 'call_2' },
      { type: 'finish', reason: { unified: 'tool_calls' } },
    ]
    const enc = protocols['openai-responses'].createStreamEncoder({ request: req })
    const frames = parseSseText(events.flatMap((e) => enc.push(e)).join('') + enc.end().join(''))
    const done = frames.map((f) => JSON.parse(f.data)).filter((d) => d.type === 'response.output_item.done').map((d) => d.item)
    expect(done.map((i) => [i.name, i.namespace])).toEqual([['spawn_agent', 'multi_agent_v1'], ['exec_command', undefined]])
    const added = frames.map((f) => JSON.parse(f.data)).filter((d) => d.type === 'response.output_item.added')
    expect(added[0].item).toMatchObject({ type: 'function_call', name: 'spawn_agent', namespace: 'multi_agent_v1' })
    const completed = frames.map((f) => JSON.parse(f.data)).find((d) => d.type === 'response.completed')
    expect(completed.response.output.map((i: any) => i.namespace)).toEqual(['multi_agent_v1', undefined])

    const body = protocols['openai-responses'].encodeResponse(
      { id: 'r', model: 'm', parts: [{ type: 'tool-call', id: 'call_1', name: 'multi_agent_v1__spawn_agent', arguments: '{}' }], finish: { unified: 'tool_calls' }, usage: emptyUsage() },
      req,
    ).value as any
    expect(body.output[0]).toMatchObject({ type: 'function_call', name: 'spawn_agent', namespace: 'multi_agent_v1', call_id: 'call_1' })
  })

  test('custom (grammar) tools cannot become functions: a 400 naming the client tools[i]; Responses keeps them', () => {
    const body = structuredClone(codex)
    body.tools.push({ type: 'custom', name: 'apply_patch', description: 'patch', format: { type: 'grammar', syntax: 'lark', definition: 'start: /.+/' } })
    const { value } = protocols['openai-responses'].decodeRequest(body)
    for (const id of ['openai-chat', 'anthropic', 'gemini'] as const) {
      let error: unknown
      try {
        protocols[id].encodeRequest(value)
      } catch (e) {
        error = e
      }
      expect(error).toBeInstanceOf(UnsupportedFeatureError)
      expect((error as UnsupportedFeatureError).param).toBe('tools[9]')
      expect((error as Error).message).toContain('custom')
    }
    expect(protocols['openai-responses'].encodeRequest(value).value.tools).toEqual(body.tools)
  })
})
