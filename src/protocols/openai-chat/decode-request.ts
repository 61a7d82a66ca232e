import {
  converted,
  type AssistantPart,
  type Converted,
  type IrRequest,
  type Message,
  type ReasoningEffort,
  type TextPart,
  type Tool,
  type ToolChoice,
  type ToolResultPart,
  type UserPart,
} from '../../ir/index.ts'
import type { DecodeOptions } from '../types.ts'
import { arr, num, parseDataUrl, rec, str, validator, decodeSampling } from '../shared.ts'
import { ChatRequest } from './wire.ts'

const check = validator(ChatRequest)
const P = 'openai-chat'

const CONSUMED = new Set([
  'model', 'messages', 'stream', 'stream_options', 'max_tokens', 'max_completion_tokens', 'temperature', 'top_p', 'top_k',
  'stop', 'seed', 'frequency_penalty', 'presence_penalty', 'tools', 'tool_choice', 'parallel_tool_calls',
  'reasoning_effort', 'response_format', 'user',
])

/** Chat content (string or parts) → IR user parts. */
function decodeChatContent(content: unknown, where: string, warnings: string[]): UserPart[] {
  if (typeof content === 'string') return content === '' ? [] : [{ type: 'text', text: content }]
  const out: UserPart[] = []
  arr(content).forEach((raw, i) => {
    const p = rec(raw)
    switch (p.type) {
      case 'text':
      case 'input_text':
        if (typeof p.text === 'string' && p.text !== '') out.push({ type: 'text', text: p.text })
        break
      case 'image_url': {
        const iu = p.image_url
        const url = typeof iu === 'string' ? iu : str(rec(iu).url) ?? ''
        const detail = str(rec(iu).detail)
        const data = parseDataUrl(url)
        const part: UserPart = data
          ? { type: 'image', source: { kind: 'base64', data: data.data }, mediaType: data.mediaType }
          : { type: 'image', source: { kind: 'url', url } }
        if (detail) part.detail = detail
        out.push(part)
        break
      }
      case 'file': {
        const f = rec(p.file)
        const fd = str(f.file_data)
        const data = fd ? parseDataUrl(fd) : undefined
        if (data) {
          const part: UserPart = { type: 'file', source: { kind: 'base64', data: data.data }, mediaType: data.mediaType }
          if (typeof f.filename === 'string') part.filename = f.filename
          out.push(part)
        } else if (typeof f.file_id === 'string') {
          out.push({ type: 'file', source: { kind: 'url', url: f.file_id } })
        } else warnings.push(`${where}[${i}]: file part without data dropped`)
        break
      }
      case 'input_audio': {
        const a = rec(p.input_audio)
        out.push({ type: 'file', source: { kind: 'base64', data: str(a.data) ?? '' }, mediaType: `audio/${str(a.format) ?? 'wav'}` })
        break
      }
      case 'refusal':
        if (typeof p.refusal === 'string' && p.refusal) out.push({ type: 'text', text: p.refusal })
        break
      default:
        warnings.push(`${where}[${i}]: content part type ${String(p.type)} dropped`)
    }
  })
  return out
}

function decodeTools(tools: unknown[]): Tool[] {
  return tools.map((raw): Tool => {
    const t = rec(raw)
    if (t.type === 'function') {
      const f = rec(t.function)
      const tool: Tool = { kind: 'function', name: str(f.name) ?? '', parameters: rec(f.parameters) }
      if (typeof f.description === 'string') tool.description = f.description
      if (typeof f.strict === 'boolean') tool.strict = f.strict
      return tool
    }
    const tool: Tool = { kind: 'provider', protocol: P, type: str(t.type) ?? 'unknown', raw: t }
    const name = str(t.name) ?? str(rec(t.custom).name)
    if (name) tool.name = name
    return tool
  })
}

function decodeChatToolChoice(v: unknown): ToolChoice | undefined {
  if (v === 'auto' || v === 'none' || v === 'required') return { type: v }
  const c = rec(v)
  const name = str(rec(c.function).name) ?? str(c.name)
  if (name) return { type: 'tool', name }
  if (c.type === 'auto' || c.type === 'none' || c.type === 'required') return { type: c.type }
  return undefined
}

const EFFORTS: readonly string[] = ['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max']

export function decodeRequest(body: unknown, options: DecodeOptions = {}): Converted<IrRequest> {
  if (!options.checked) check(body)
  const b = body as Record<string, unknown>
  const warnings: string[] = []
  const messages: Message[] = []

  arr(b.messages).forEach((raw, i) => {
    const m = rec(raw)
    const where = `messages[${i}].content`
    switch (m.role) {
      case 'system':
      case 'developer': {
        const content = decodeChatContent(m.content, where, warnings).filter((p): p is TextPart => p.type === 'text')
        if (content.length) messages.push({ role: 'system', content })
        break
      }
      case 'user': {
        const content = decodeChatContent(m.content, where, warnings)
        if (content.length) messages.push({ role: 'user', content })
        break
      }
      case 'assistant': {
        const content: AssistantPart[] = []
        const reasoning = str(m.reasoning_content) ?? str(m.reasoning)
        if (reasoning) content.push({ type: 'reasoning', text: reasoning, origin: P })
        for (const p of decodeChatContent(m.content, where, warnings)) if (p.type === 'text') content.push(p)
        for (const rawCall of arr(m.tool_calls)) {
          const c = rec(rawCall)
          const f = rec(c.function)
          content.push({ type: 'tool-call', id: str(c.id) ?? '', name: str(f.name) ?? '', arguments: str(f.arguments) ?? '{}' })
        }
        if (content.length) messages.push({ role: 'assistant', content })
        break
      }
      case 'tool': {
        const content = decodeChatContent(m.content, where, warnings).filter((p) => p.type !== 'file') as ToolResultPart['content']
        const part: ToolResultPart = { type: 'tool-result', callId: str(m.tool_call_id) ?? '', content }
        const last = messages[messages.length - 1]
        if (last?.role === 'tool') last.content.push(part)
        else messages.push({ role: 'tool', content: [part] })
        break
      }
      default:
        warnings.push(`messages[${i}]: role ${String(m.role)} dropped`)
    }
  })

  const providerOptions: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(b)) if (!CONSUMED.has(k)) providerOptions[k] = v
  if (b.max_completion_tokens != null) providerOptions.__maxCompletionTokens = true

  const req: IrRequest = {
    model: b.model as string,
    system: [],
    messages,
    tools: decodeTools(arr(b.tools)),
    sampling: {},
    stream: b.stream === true,
    providerOptions: { [P]: providerOptions },
  }
  const max = num(b.max_completion_tokens) ?? num(b.max_tokens)
  if (max !== undefined) req.maxOutputTokens = max
  req.sampling = decodeSampling(b, {
    temperature: 'temperature', topP: 'top_p', topK: 'top_k', stop: 'stop', seed: 'seed',
    presencePenalty: 'presence_penalty', frequencyPenalty: 'frequency_penalty',
  })
  if (typeof b.stop === 'string') req.sampling.stop = [b.stop]

  const tc = decodeChatToolChoice(b.tool_choice)
  if (tc) req.toolChoice = tc
  if (typeof b.parallel_tool_calls === 'boolean') req.parallelToolCalls = b.parallel_tool_calls
  if (typeof b.reasoning_effort === 'string' && EFFORTS.includes(b.reasoning_effort))
    req.reasoning = { effort: b.reasoning_effort as ReasoningEffort, enabled: b.reasoning_effort !== 'none' }

  const rf = rec(b.response_format)
  if (rf.type === 'json_object') req.responseFormat = { type: 'json_object' }
  else if (rf.type === 'text') req.responseFormat = { type: 'text' }
  else if (rf.type === 'json_schema') {
    const js = rec(rf.json_schema)
    req.responseFormat = { type: 'json_schema', name: str(js.name) ?? 'output', schema: rec(js.schema) }
    if (typeof js.strict === 'boolean') req.responseFormat.strict = js.strict
    if (typeof js.description === 'string') req.responseFormat.description = js.description
  }
  if (rec(b.stream_options).include_usage === true) req.includeUsage = true
  if (typeof b.user === 'string') req.user = b.user
  return converted(req, warnings)
}
