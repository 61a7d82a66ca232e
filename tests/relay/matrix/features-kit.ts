/**
 * The request-feature matrix's kit: one neutral description of a request (`Spec`), written in each client
 * protocol's own wire format as raw HTTP, and each client's answer (non-stream body or SSE) read back into one
 * neutral shape. The tests then assert on the body the fake upstream recorded, in each vendor's own fields.
 */
import type { ProtocolId } from '../../../src/protocols/types'
import { parseSseText } from '../../../src/protocols/sse'
import type { RecordedRequest } from '../../helpers/fake-upstreams'
import type { RelayEnv } from '../../helpers/relay-env'
import { CLIENT_PROTOCOLS, TOOLS } from './harness'
import { until } from '../../helpers/wait'

export type Img = { kind: 'url'; url: string; mediaType?: string } | { kind: 'base64'; data: string; mediaType: string }
type Call = { id: string; name: string; args: Record<string, unknown> }
type Msg =
  | { role: 'user'; text?: string; images?: Img[] }
  | { role: 'assistant'; text?: string; calls?: Call[] }
  /** a system turn inside the conversation (Anthropic messages, chat system, Responses developer) */
  | { role: 'system'; text: string }
  | { role: 'tool'; results: { id: string; name: string; content: string; isError?: boolean }[] }

export type ToolChoice = 'auto' | 'none' | 'required' | { name: string }
export type Format = { type: 'json_schema'; name: string; schema: Record<string, unknown> } | { type: 'json_object' }

export interface Spec {
  system?: string
  messages: Msg[]
  tools?: typeof TOOLS
  toolChoice?: ToolChoice
  /** false: one call at most (Anthropic disable_parallel_tool_use, OpenAI parallel_tool_calls; Gemini has none) */
  parallel?: false
  stop?: string[]
  format?: Format
  temperature?: number
  topP?: number
  topK?: number
  maxTokens?: number
}

export interface HttpRequest {
  path: string
  headers: Record<string, string>
  body: Record<string, any>
}

const JSON_CT = { 'content-type': 'application/json' }

/** `spec` in `client`'s wire format, as a raw HTTP request to the gateway. */
export function clientRequest(client: ProtocolId, model: string, key: string, spec: Spec, stream: boolean): HttpRequest {
  switch (client) {
    case 'anthropic':
      return { path: '/v1/messages', headers: { ...JSON_CT, 'x-api-key': key, 'anthropic-version': '2023-06-01', 'anthropic-beta': 'mid-conversation-system-2026-04-07' }, body: anthropicBody(model, spec, stream) }
    case 'openai-chat':
      return { path: '/v1/chat/completions', headers: { ...JSON_CT, authorization: `Bearer ${key}` }, body: chatBody(model, spec, stream) }
    case 'openai-responses':
      return { path: '/v1/responses', headers: { ...JSON_CT, authorization: `Bearer ${key}` }, body: responsesBody(model, spec, stream) }
    case 'gemini':
      return {
        path: `/v1beta/models/${model}:${stream ? 'streamGenerateContent?alt=sse' : 'generateContent'}`,
        headers: { ...JSON_CT, 'x-goog-api-key': key },
        body: geminiBody(spec),
      }
  }
}

const dataUrl = (i: Img) => (i.kind === 'url' ? i.url : `data:${i.mediaType};base64,${i.data}`)

function anthropicBody(model: string, s: Spec, stream: boolean) {
  const image = (i: Img) => ({ type: 'image', source: i.kind === 'url' ? { type: 'url', url: i.url } : { type: 'base64', media_type: i.mediaType, data: i.data } })
  const messages = s.messages.map((m) => {
    switch (m.role) {
      case 'user':
        return { role: 'user', content: [...(m.text ? [{ type: 'text', text: m.text }] : []), ...(m.images ?? []).map(image)] }
      case 'assistant':
        return { role: 'assistant', content: [...(m.text ? [{ type: 'text', text: m.text }] : []), ...(m.calls ?? []).map((c) => ({ type: 'tool_use', id: c.id, name: c.name, input: c.args }))] }
      case 'system':
        return { role: 'system', content: m.text }
      case 'tool':
        return { role: 'user', content: m.results.map((r) => ({ type: 'tool_result', tool_use_id: r.id, content: r.content, ...(r.isError ? { is_error: true } : {}) })) }
    }
  })
  const tc = s.toolChoice
  return {
    model, max_tokens: s.maxTokens ?? 1024, stream, messages,
    ...(s.system ? { system: s.system } : {}),
    ...(s.tools ? { tools: s.tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.parameters })) } : {}),
    ...(tc ? { tool_choice: typeof tc === 'object' ? { type: 'tool', name: tc.name } : { type: tc === 'required' ? 'any' : tc } } : {}),
    ...(s.parallel === false ? { tool_choice: { type: 'auto', disable_parallel_tool_use: true } } : {}),
    ...(s.stop ? { stop_sequences: s.stop } : {}),
    ...(s.format?.type === 'json_schema' ? { output_config: { format: { type: 'json_schema', schema: s.format.schema } } } : {}),
    ...(s.temperature !== undefined ? { temperature: s.temperature } : {}),
    ...(s.topP !== undefined ? { top_p: s.topP } : {}),
    ...(s.topK !== undefined ? { top_k: s.topK } : {}),
  }
}

function chatBody(model: string, s: Spec, stream: boolean) {
  const messages: any[] = s.system ? [{ role: 'system', content: s.system }] : []
  for (const m of s.messages) {
    if (m.role === 'user')
      messages.push({ role: 'user', content: m.images ? [...(m.text ? [{ type: 'text', text: m.text }] : []), ...m.images.map((i) => ({ type: 'image_url', image_url: { url: dataUrl(i) } }))] : m.text })
    else if (m.role === 'assistant')
      messages.push({ role: 'assistant', content: m.text ?? null, ...(m.calls ? { tool_calls: m.calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: JSON.stringify(c.args) } })) } : {}) })
    else if (m.role === 'system') messages.push({ role: 'system', content: m.text })
    else for (const r of m.results) messages.push({ role: 'tool', tool_call_id: r.id, content: r.content })
  }
  const tc = s.toolChoice
  const f = s.format
  return {
    model, messages, stream, ...(stream ? { stream_options: { include_usage: true } } : {}),
    ...(s.maxTokens !== undefined ? { max_completion_tokens: s.maxTokens } : {}),
    ...(s.tools ? { tools: s.tools.map((t) => ({ type: 'function', function: t })) } : {}),
    ...(tc ? { tool_choice: typeof tc === 'object' ? { type: 'function', function: { name: tc.name } } : tc } : {}),
    ...(s.parallel === false ? { parallel_tool_calls: false } : {}),
    ...(s.stop ? { stop: s.stop } : {}),
    ...(f ? { response_format: f.type === 'json_schema' ? { type: 'json_schema', json_schema: { name: f.name, schema: f.schema } } : { type: 'json_object' } } : {}),
    ...(s.temperature !== undefined ? { temperature: s.temperature } : {}),
    ...(s.topP !== undefined ? { top_p: s.topP } : {}),
  }
}

function responsesBody(model: string, s: Spec, stream: boolean) {
  const input: any[] = []
  for (const m of s.messages) {
    if (m.role === 'user')
      input.push({ type: 'message', role: 'user', content: [...(m.text ? [{ type: 'input_text', text: m.text }] : []), ...(m.images ?? []).map((i) => ({ type: 'input_image', image_url: dataUrl(i), detail: 'auto' }))] })
    else if (m.role === 'assistant') {
      if (m.text) input.push({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: m.text, annotations: [] }] })
      for (const c of m.calls ?? []) input.push({ type: 'function_call', call_id: c.id, name: c.name, arguments: JSON.stringify(c.args) })
    } else if (m.role === 'system') input.push({ type: 'message', role: 'developer', content: [{ type: 'input_text', text: m.text }] })
    else for (const r of m.results) input.push({ type: 'function_call_output', call_id: r.id, output: r.content })
  }
  const tc = s.toolChoice
  const f = s.format
  return {
    model, input, stream, store: false,
    ...(s.system ? { instructions: s.system } : {}),
    ...(s.maxTokens !== undefined ? { max_output_tokens: s.maxTokens } : {}),
    ...(s.tools ? { tools: s.tools.map((t) => ({ type: 'function', strict: false, ...t })) } : {}),
    ...(tc ? { tool_choice: typeof tc === 'object' ? { type: 'function', name: tc.name } : tc } : {}),
    ...(s.parallel === false ? { parallel_tool_calls: false } : {}),
    ...(f ? { text: { format: f.type === 'json_schema' ? { type: 'json_schema', name: f.name, schema: f.schema } : { type: 'json_object' } } } : {}),
    ...(s.temperature !== undefined ? { temperature: s.temperature } : {}),
    ...(s.topP !== undefined ? { top_p: s.topP } : {}),
  }
}

function geminiBody(s: Spec) {
  const media = (i: Img) => (i.kind === 'url' ? { fileData: { mimeType: i.mediaType ?? 'image/png', fileUri: i.url } } : { inlineData: { mimeType: i.mediaType, data: i.data } })
  const contents: any[] = []
  for (const m of s.messages) {
    if (m.role === 'user') contents.push({ role: 'user', parts: [...(m.text ? [{ text: m.text }] : []), ...(m.images ?? []).map(media)] })
    else if (m.role === 'assistant')
      contents.push({
        role: 'model',
        // Gemini 3 signs the first call of a turn; a client replays that signature
        parts: [...(m.text ? [{ text: m.text }] : []), ...(m.calls ?? []).map((c, i) => ({ functionCall: { name: c.name, args: c.args }, ...(i === 0 ? { thoughtSignature: 'sig-gemini-call' } : {}) }))],
      })
    else if (m.role === 'system') throw new Error('Gemini has no system turn inside contents')
    else contents.push({ role: 'user', parts: m.results.map((r) => ({ functionResponse: { name: r.name, response: r.isError ? { error: r.content } : { output: r.content } } })) })
  }
  const tc = s.toolChoice
  const f = s.format
  const gc = {
    ...(s.stop ? { stopSequences: s.stop } : {}),
    ...(f ? { responseMimeType: 'application/json', ...(f.type === 'json_schema' ? { responseJsonSchema: f.schema } : {}) } : {}),
    ...(s.temperature !== undefined ? { temperature: s.temperature } : {}),
    ...(s.topP !== undefined ? { topP: s.topP } : {}),
    ...(s.topK !== undefined ? { topK: s.topK } : {}),
    ...(s.maxTokens !== undefined ? { maxOutputTokens: s.maxTokens } : {}),
  }
  return {
    contents,
    ...(s.system ? { systemInstruction: { parts: [{ text: s.system }] } } : {}),
    ...(s.tools ? { tools: [{ functionDeclarations: s.tools.map((t) => ({ name: t.name, description: t.description, parametersJsonSchema: t.parameters })) }] } : {}),
    ...(tc
      ? { toolConfig: { functionCallingConfig: typeof tc === 'object' ? { mode: 'ANY', allowedFunctionNames: [tc.name] } : { mode: tc === 'required' ? 'ANY' : tc.toUpperCase() } } }
      : {}),
    ...(Object.keys(gc).length ? { generationConfig: gc } : {}),
  }
}

/** The client's answer, in neutral terms. `finish` is the client's own value (stop_reason, finish_reason, status, finishReason). */
export interface Answer {
  status: number
  text: string
  calls: { id?: string; name: string; args: unknown }[]
  finish?: string
  /** Anthropic `stop_sequence` */
  stopSequence?: string | null
  /** the raw body text (error bodies included) */
  raw: string
}

/** The client's own finish values after a plain answer and after tool calls. */
export const FINISH: Record<ProtocolId, { stop: string; tool: string }> = {
  anthropic: { stop: 'end_turn', tool: 'tool_use' },
  'openai-chat': { stop: 'stop', tool: 'tool_calls' },
  'openai-responses': { stop: 'completed', tool: 'completed' },
  gemini: { stop: 'STOP', tool: 'STOP' },
}

/** Sends `spec` as `client` and reads the answer (stream or not) back. */
export async function ask(env: RelayEnv, client: ProtocolId, model: string, spec: Spec, stream: boolean): Promise<Answer> {
  const req = clientRequest(client, model, env.key, spec, stream)
  const res = await env.app.fetch(req.path, { method: 'POST', headers: req.headers, body: JSON.stringify(req.body) })
  const raw: string = await Promise.race([res.text(), Bun.sleep(5000).then(() => Promise.reject(new Error('answer did not end')))])
  const base = { status: res.status, raw, text: '', calls: [] }
  if (res.status !== 200) return base
  if (!stream) return { ...base, ...readBody(client, JSON.parse(raw)) }
  const data = parseSseText(raw).filter((e) => e.data !== '[DONE]').map((e) => JSON.parse(e.data))
  return { ...base, ...readStream(client, data) }
}

type Read = Omit<Answer, 'status' | 'raw'>

function readBody(client: ProtocolId, b: any): Read {
  switch (client) {
    case 'anthropic':
      return {
        text: b.content.filter((c: any) => c.type === 'text').map((c: any) => c.text).join(''),
        calls: b.content.filter((c: any) => c.type === 'tool_use').map((c: any) => ({ id: c.id, name: c.name, args: c.input })),
        finish: b.stop_reason, stopSequence: b.stop_sequence,
      }
    case 'openai-chat': {
      const m = b.choices[0].message
      return { text: m.content ?? '', calls: (m.tool_calls ?? []).map((c: any) => ({ id: c.id, name: c.function.name, args: JSON.parse(c.function.arguments) })), finish: b.choices[0].finish_reason }
    }
    case 'openai-responses':
      return {
        text: b.output.filter((o: any) => o.type === 'message').flatMap((o: any) => o.content).map((c: any) => c.text ?? '').join(''),
        calls: b.output.filter((o: any) => o.type === 'function_call').map((o: any) => ({ id: o.call_id, name: o.name, args: JSON.parse(o.arguments) })),
        finish: b.status === 'incomplete' ? `incomplete:${b.incomplete_details?.reason}` : b.status,
      }
    case 'gemini':
      return geminiRead([b])
  }
}

function geminiRead(frames: any[]): Read {
  const parts = frames.flatMap((f) => f.candidates?.[0]?.content?.parts ?? [])
  return {
    text: parts.filter((p: any) => typeof p.text === 'string' && !p.thought).map((p: any) => p.text).join(''),
    calls: parts.filter((p: any) => p.functionCall).map((p: any) => ({ id: p.functionCall.id, name: p.functionCall.name, args: p.functionCall.args })),
    finish: frames.map((f) => f.candidates?.[0]?.finishReason).filter(Boolean).at(-1),
  }
}

function readStream(client: ProtocolId, data: any[]): Read {
  switch (client) {
    case 'anthropic': {
      const calls = new Map<number, { id: string; name: string; json: string }>()
      let text = ''
      let finish: string | undefined
      let stopSequence: string | null | undefined
      for (const d of data) {
        if (d.type === 'content_block_start' && d.content_block.type === 'tool_use') calls.set(d.index, { id: d.content_block.id, name: d.content_block.name, json: '' })
        if (d.type === 'content_block_delta' && d.delta.type === 'text_delta') text += d.delta.text
        if (d.type === 'content_block_delta' && d.delta.type === 'input_json_delta') calls.get(d.index)!.json += d.delta.partial_json
        if (d.type === 'message_delta') ({ stop_reason: finish, stop_sequence: stopSequence } = d.delta)
      }
      return { text, calls: [...calls.values()].map((c) => ({ id: c.id, name: c.name, args: JSON.parse(c.json || '{}') })), finish, stopSequence }
    }
    case 'openai-chat': {
      const calls = new Map<number, { id: string; name: string; args: string }>()
      let text = ''
      let finish: string | undefined
      for (const c of data) {
        const choice = c.choices?.[0]
        if (!choice) continue
        text += choice.delta?.content ?? ''
        for (const t of choice.delta?.tool_calls ?? []) {
          const call = calls.get(t.index) ?? { id: t.id, name: t.function?.name, args: '' }
          call.args += t.function?.arguments ?? ''
          calls.set(t.index, call)
        }
        if (choice.finish_reason) finish = choice.finish_reason
      }
      return { text, calls: [...calls.values()].map((c) => ({ id: c.id, name: c.name, args: JSON.parse(c.args || '{}') })), finish }
    }
    case 'openai-responses': {
      const last = data.at(-1)
      if (!String(last?.type).startsWith('response.')) throw new Error(`Responses stream ended with ${last?.type}`)
      return readBody(client, last.response)
    }
    case 'gemini':
      return geminiRead(data)
  }
}

/** The one upstream request of a test, checked to be this upstream's and complete. */
export function sentTo(env: RelayEnv, protocol: ProtocolId, index = 0): RecordedRequest & { json: any } {
  const rec = env.upstream.requests[index]
  if (!rec) throw new Error(`no upstream request #${index}`)
  if (rec.protocol !== protocol) throw new Error(`upstream request went to ${rec.protocol}, not ${protocol}`)
  return rec
}

/** Streams settle when the body is fully read, a moment after the client has it. */
export async function settled(env: RelayEnv): Promise<string[]> {
  await until(() => env.outcomes.length > 0, { what: 'the settled outcome' })
  return env.outcomes[0]?.warnings ?? []
}

/** Every client × every upstream × {non-stream, stream}, as describe.each rows. */
export const PAIRS = CLIENT_PROTOCOLS.flatMap((client) => [false, true].map((stream) => ({ client, stream })))
