import {
  converted,
  type AssistantMessage,
  type AssistantPart,
  type Converted,
  type FunctionTool,
  type IrRequest,
  type Message,
  type ReasoningEffort,
  type TextPart,
  type Tool,
  type ToolResultPart,
  type UserPart,
} from '../../ir/index.ts'
import type { DecodeOptions } from '../types.ts'
import { unwrapSignature } from '../envelope.ts'
import { arr, num, parseDataUrl, rec, str, validator, decodeSampling } from '../shared.ts'
import { ResponsesRequest } from './wire.ts'

const check = validator(ResponsesRequest)
const P = 'openai-responses'

const CONSUMED = new Set([
  'model', 'input', 'instructions', 'stream', 'max_output_tokens', 'temperature', 'top_p', 'top_k', 'tools', 'tool_choice',
  'parallel_tool_calls', 'reasoning', 'text', 'user',
])

/** Responses content (string or parts) → IR user parts. */
function decodeResponsesContent(content: unknown, where: string, warnings: string[]): UserPart[] {
  if (typeof content === 'string') return content === '' ? [] : [{ type: 'text', text: content }]
  const out: UserPart[] = []
  arr(content).forEach((raw, i) => {
    const p = rec(raw)
    switch (p.type) {
      case 'input_text':
      case 'output_text':
      case 'text':
        if (typeof p.text === 'string' && p.text !== '') out.push({ type: 'text', text: p.text })
        break
      case 'refusal':
        if (typeof p.refusal === 'string' && p.refusal !== '') out.push({ type: 'text', text: p.refusal })
        break
      case 'input_image': {
        const url = str(p.image_url) ?? str(p.file_id) ?? ''
        const data = parseDataUrl(url)
        const part: UserPart = data
          ? { type: 'image', source: { kind: 'base64', data: data.data }, mediaType: data.mediaType }
          : { type: 'image', source: { kind: 'url', url } }
        if (typeof p.detail === 'string') part.detail = p.detail
        out.push(part)
        break
      }
      case 'input_file': {
        const fd = str(p.file_data)
        const data = fd ? parseDataUrl(fd) : undefined
        let part: UserPart | undefined
        if (data) part = { type: 'file', source: { kind: 'base64', data: data.data }, mediaType: data.mediaType }
        else if (fd) part = { type: 'file', source: { kind: 'base64', data: fd }, mediaType: 'application/pdf' }
        else if (str(p.file_url) ?? str(p.file_id)) part = { type: 'file', source: { kind: 'url', url: (str(p.file_url) ?? str(p.file_id))! } }
        if (part) {
          if (typeof p.filename === 'string') (part as { filename?: string }).filename = p.filename
          out.push(part)
        } else warnings.push(`${where}[${i}]: input_file without data dropped`)
        break
      }
      default:
        warnings.push(`${where}[${i}]: content part type ${String(p.type)} dropped`)
    }
  })
  return out
}

function decodeFunctionTool(t: Record<string, unknown>): FunctionTool {
  const tool: FunctionTool = { kind: 'function', name: str(t.name) ?? '', parameters: rec(t.parameters) }
  if (typeof t.description === 'string') tool.description = t.description
  if (typeof t.strict === 'boolean') tool.strict = t.strict
  return tool
}

function decodeTools(tools: unknown[]): Tool[] {
  return tools.flatMap((raw): Tool[] => {
    const t = rec(raw)
    if (t.type === 'function') return [decodeFunctionTool(t)]
    // A namespace of function tools becomes one function tool per member (protocols without namespaces send
    // them under flat names); the namespace's own fields ride along so the Responses encoder can regroup them.
    // A namespace holding anything else (custom grammar tools) stays one provider tool.
    const members = arr(t.tools).map(rec)
    if (t.type === 'namespace' && typeof t.name === 'string' && t.name && members.length && members.every((m) => m.type === 'function')) {
      const { tools: _members, ...header } = t
      return members.map((m) => ({ ...decodeFunctionTool(m), namespace: t.name as string, providerOptions: { [P]: { namespace: header } } }))
    }
    const tool: Tool = { kind: 'provider', protocol: P, type: str(t.type) ?? 'unknown', raw: t }
    if (typeof t.name === 'string') tool.name = t.name
    return [tool]
  })
}

const EFFORTS: readonly string[] = ['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max']

export function decodeRequest(body: unknown, options: DecodeOptions = {}): Converted<IrRequest> {
  if (!options.checked) check(body)
  const b = body as Record<string, unknown>
  const warnings: string[] = []
  const messages: Message[] = []
  const system: TextPart[] = []

  if (typeof b.instructions === 'string' && b.instructions !== '') system.push({ type: 'text', text: b.instructions })
  else if (Array.isArray(b.instructions))
    for (const p of decodeResponsesContent(b.instructions.flatMap((it) => arr(rec(it).content)), 'instructions', warnings))
      if (p.type === 'text') system.push(p)

  /** Assistant parts accumulate across consecutive message/reasoning/function_call items. */
  let assistant: AssistantMessage | undefined
  const toAssistant = (part: AssistantPart) => {
    if (!assistant) {
      assistant = { role: 'assistant', content: [] }
      messages.push(assistant)
    }
    assistant.content.push(part)
  }
  const itemOptions = (item: Record<string, unknown>) => (typeof item.id === 'string' ? { [P]: { id: item.id } } : undefined)

  const input = typeof b.input === 'string' ? [{ type: 'message', role: 'user', content: b.input }] : arr(b.input)
  input.forEach((raw, i) => {
    const item = rec(raw)
    const where = `input[${i}]`
    const type = str(item.type) ?? (item.role !== undefined ? 'message' : undefined)
    if (type !== 'message' || item.role !== 'assistant') {
      if (type !== 'reasoning' && type !== 'function_call' && type !== 'custom_tool_call') assistant = undefined
    }
    switch (type) {
      case 'message': {
        const role = str(item.role)
        const content = decodeResponsesContent(item.content, `${where}.content`, warnings)
        const po = itemOptions(item)
        if (role === 'system' || role === 'developer') {
          const texts = content.filter((p): p is TextPart => p.type === 'text')
          if (texts.length) messages.push({ role: 'system', content: texts, providerOptions: { [P]: { ...po?.[P], role } } })
        } else if (role === 'assistant') {
          for (const p of content) if (p.type === 'text') toAssistant(po ? { ...p, providerOptions: po } : p)
        } else if (content.length) messages.push(po ? { role: 'user', content, providerOptions: po } : { role: 'user', content })
        break
      }
      case 'reasoning': {
        const summary = arr(item.summary).map((s) => str(rec(s).text) ?? '').filter(Boolean)
        const full = arr(item.content).map((s) => str(rec(s).text) ?? '').filter(Boolean)
        const text = (summary.length ? summary : full).join('\n\n')
        const enc = str(item.encrypted_content)
        const env = enc ? unwrapSignature(enc) : undefined
        const part: AssistantPart = { type: 'reasoning', text, origin: env?.origin ?? P }
        if (env) {
          if (env.signature) part.signature = env.signature
          if (env.encrypted) part.encrypted = env.encrypted
          if (env.id) part.id = env.id
        } else {
          if (enc) part.encrypted = enc
          if (typeof item.id === 'string') part.id = item.id
        }
        toAssistant(part)
        break
      }
      case 'function_call':
      case 'custom_tool_call': {
        const extra: Record<string, unknown> = {}
        if (typeof item.id === 'string') extra.id = item.id
        if (type === 'custom_tool_call') extra.type = type
        if (typeof item.status === 'string') extra.status = item.status
        const part: AssistantPart = {
          type: 'tool-call',
          id: str(item.call_id) ?? str(item.id) ?? '',
          name: str(item.name) ?? '',
          arguments: (type === 'custom_tool_call' ? str(item.input) : str(item.arguments)) ?? '{}',
        }
        if (typeof item.namespace === 'string' && item.namespace) part.namespace = item.namespace
        if (Object.keys(extra).length) part.providerOptions = { [P]: extra }
        toAssistant(part)
        break
      }
      case 'function_call_output':
      case 'custom_tool_call_output': {
        const out = item.output
        const content = (typeof out === 'string' ? (out === '' ? [] : [{ type: 'text' as const, text: out }]) : decodeResponsesContent(out, `${where}.output`, warnings)) as ToolResultPart['content']
        const part: ToolResultPart = { type: 'tool-result', callId: str(item.call_id) ?? '', content }
        const extra: Record<string, unknown> = {}
        if (typeof item.id === 'string') extra.id = item.id
        if (type === 'custom_tool_call_output') extra.type = type
        if (Object.keys(extra).length) part.providerOptions = { [P]: extra }
        const last = messages[messages.length - 1]
        if (last?.role === 'tool') last.content.push(part)
        else messages.push({ role: 'tool', content: [part] })
        break
      }
      default:
        messages.push({ role: 'opaque', protocol: P, type: type ?? 'unknown', raw: item, path: where })
    }
  })

  const providerOptions: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(b)) if (!CONSUMED.has(k)) providerOptions[k] = v

  const req: IrRequest = {
    model: b.model as string,
    system,
    messages,
    tools: decodeTools(arr(b.tools)),
    sampling: {},
    stream: b.stream === true,
    providerOptions: { [P]: providerOptions },
  }
  const max = num(b.max_output_tokens)
  if (max !== undefined) req.maxOutputTokens = max
  req.sampling = decodeSampling(b, { temperature: 'temperature', topP: 'top_p', topK: 'top_k' })

  const tc = b.tool_choice
  if (tc === 'auto' || tc === 'none' || tc === 'required') req.toolChoice = { type: tc }
  else if (rec(tc).type === 'function' && typeof rec(tc).name === 'string') req.toolChoice = { type: 'tool', name: rec(tc).name as string }
  else if (tc !== undefined) providerOptions.tool_choice = tc
  if (typeof b.parallel_tool_calls === 'boolean') req.parallelToolCalls = b.parallel_tool_calls

  const r = rec(b.reasoning)
  if (b.reasoning != null) {
    req.reasoning = {}
    if (typeof r.effort === 'string' && EFFORTS.includes(r.effort)) {
      req.reasoning.effort = r.effort as ReasoningEffort
      req.reasoning.enabled = r.effort !== 'none'
    }
    if (typeof r.summary === 'string') req.reasoning.summary = r.summary
    const rest: Record<string, unknown> = {}
    for (const [k, v] of Object.entries(r)) if (k !== 'effort' && k !== 'summary') rest[k] = v
    if (Object.keys(rest).length) providerOptions.reasoning = rest
  }

  const text = rec(b.text)
  const fmt = rec(text.format)
  if (fmt.type === 'json_schema') {
    req.responseFormat = { type: 'json_schema', name: str(fmt.name) ?? 'output', schema: rec(fmt.schema) }
    if (typeof fmt.strict === 'boolean') req.responseFormat.strict = fmt.strict
    if (typeof fmt.description === 'string') req.responseFormat.description = fmt.description
  } else if (fmt.type === 'json_object') req.responseFormat = { type: 'json_object' }
  else if (fmt.type === 'text') req.responseFormat = { type: 'text' }
  const textRest: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(text)) if (k !== 'format') textRest[k] = v
  if (Object.keys(textRest).length) providerOptions.text = textRest

  if (typeof b.user === 'string') req.user = b.user
  return converted(req, warnings)
}
