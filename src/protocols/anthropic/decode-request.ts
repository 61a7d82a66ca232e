import {
  converted,
  stringifyArguments,
  type AssistantPart,
  type Converted,
  type FilePart,
  type ImagePart,
  type IrRequest,
  type Message,
  type Part,
  type ProviderOptions,
  type ReasoningEffort,
  type TextPart,
  type Tool,
  type ToolChoice,
  type ToolResultPart,
  type UserPart,
  wholeText,
} from '../../ir/index.ts'
import type { DecodeOptions } from '../types.ts'
import { arr, num, rec, str, validator, decodeSampling } from '../shared.ts'
import { unwrapSignature } from '../envelope.ts'
import { AnthropicRequest } from './wire.ts'

const check = validator(AnthropicRequest)
const P = 'anthropic'

/** Fields this decoder maps into the IR; every other top-level field is kept in `providerOptions.anthropic`. */
const CONSUMED = new Set([
  'model', 'messages', 'max_tokens', 'system', 'temperature', 'top_p', 'top_k', 'stop_sequences', 'stream',
  'tools', 'tool_choice', 'thinking', 'output_config',
])

/** Per-block extras worth keeping (cache_control, citations …): everything but the fields we map. */
function blockOptions(b: Record<string, unknown>, mapped: readonly string[]): ProviderOptions | undefined {
  // for…in, not Object.entries: no [k, v] arrays per block (a 4 MB agent turn has thousands of blocks; entries was ~20% of decoding)
  let extra: Record<string, unknown> | undefined
  for (const k in b) {
    if (k === 'type' || mapped.includes(k) || !Object.hasOwn(b, k)) continue
    ;(extra ??= {})[k] = b[k]
  }
  return extra ? { [P]: extra } : undefined
}

function withOptions<T extends Part>(part: T, po: ProviderOptions | undefined): T {
  if (po) part.providerOptions = po
  return part
}

function decodeMedia(b: Record<string, unknown>, where: string, warnings: string[]): ImagePart | FilePart | undefined {
  const src = rec(b.source)
  const isImage = b.type === 'image'
  const po = blockOptions(b, ['source', 'title'])
  if (src.type === 'base64') {
    const mediaType = str(src.media_type)
    const part: ImagePart | FilePart = isImage
      ? { type: 'image', source: { kind: 'base64', data: str(src.data) ?? '' } }
      : { type: 'file', source: { kind: 'base64', data: str(src.data) ?? '' } }
    if (mediaType) part.mediaType = mediaType
    if (!isImage && typeof b.title === 'string') (part as FilePart).filename = b.title
    return withOptions(part, po)
  }
  if (src.type === 'url') {
    const url = str(src.url) ?? ''
    const part: ImagePart | FilePart = isImage ? { type: 'image', source: { kind: 'url', url } } : { type: 'file', source: { kind: 'url', url } }
    if (!isImage) part.mediaType = 'application/pdf'
    return withOptions(part, po)
  }
  if (src.type === 'text' && !isImage) {
    const part: FilePart = {
      type: 'file',
      mediaType: str(src.media_type) ?? 'text/plain',
      source: { kind: 'base64', data: Buffer.from(wholeText(str(src.data) ?? '', where), 'utf8').toString('base64') },
    }
    if (typeof b.title === 'string') part.filename = b.title
    return withOptions(part, po)
  }
  warnings.push(`${where}: ${String(b.type)} source type ${String(src.type)} is not supported, dropped`)
  return undefined
}

function decodeToolResultContent(v: unknown, where: () => string, warnings: string[]): ToolResultPart['content'] {
  if (typeof v === 'string') return v === '' ? [] : [{ type: 'text', text: v }]
  const out: ToolResultPart['content'] = []
  arr(v).forEach((raw, i) => {
    const b = rec(raw)
    if (b.type === 'text') {
      if (typeof b.text === 'string' && b.text !== '') out.push(withOptions({ type: 'text', text: b.text }, blockOptions(b, ['text'])))
    } else if (b.type === 'image' || b.type === 'document') {
      const m = decodeMedia(b, `${where()}.content[${i}]`, warnings)
      if (m) out.push(m)
    } else warnings.push(`${where()}.content[${i}]: block type ${String(b.type)} dropped`)
  })
  return out
}

function decodeTools(tools: unknown[]): Tool[] {
  return tools.map((raw): Tool => {
    const t = rec(raw)
    const type = str(t.type)
    if (type === undefined || type === 'custom') {
      const tool: Tool = { kind: 'function', name: str(t.name) ?? '', parameters: rec(t.input_schema) }
      if (typeof t.description === 'string') tool.description = t.description
      if (typeof t.strict === 'boolean') tool.strict = t.strict
      const po = blockOptions(t, ['name', 'description', 'input_schema', 'strict'])
      if (po) tool.providerOptions = po
      return tool
    }
    const tool: Tool = { kind: 'provider', protocol: P, type, raw: t }
    if (typeof t.name === 'string') tool.name = t.name
    return tool
  })
}

function decodeToolChoice(v: unknown): { choice?: ToolChoice; parallel?: boolean } {
  const c = rec(v)
  const parallel = c.disable_parallel_tool_use === true ? false : undefined
  switch (c.type) {
    case 'auto':
      return { choice: { type: 'auto' }, parallel }
    case 'any':
      return { choice: { type: 'required' }, parallel }
    case 'none':
      return { choice: { type: 'none' }, parallel }
    case 'tool':
      return { choice: { type: 'tool', name: str(c.name) ?? '' }, parallel }
  }
  return { parallel }
}

/** Where a message's block is, for a warning: written only when one is (a 4 MB agent turn has thousands of blocks). */
const blockAt = (mi: number, bi: number) => `messages[${mi}].content[${bi}]`

/** Decodes a user/assistant/system content list into IR messages (tool results become `tool` messages). */
function decodeMessage(m: Record<string, unknown>, mi: number, warnings: string[], out: Message[]): void {
  const role = m.role
  const blocks: Record<string, unknown>[] =
    typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : arr(m.content).map(rec)

  if (role === 'system') {
    const content: TextPart[] = []
    for (const b of blocks) {
      if (b.type === 'text' && typeof b.text === 'string' && b.text !== '') content.push(withOptions({ type: 'text', text: b.text }, blockOptions(b, ['text'])))
    }
    if (content.length) out.push({ role: 'system', content })
    return
  }

  if (role === 'assistant') {
    const content: AssistantPart[] = []
    blocks.forEach((b, bi) => {
      switch (b.type) {
        case 'text':
          if (typeof b.text === 'string' && b.text !== '') content.push(withOptions({ type: 'text', text: b.text }, blockOptions(b, ['text'])))
          break
        case 'thinking': {
          const sig = str(b.signature) ?? ''
          const text = str(b.thinking) ?? ''
          if (sig === '') {
            warnings.push(`${blockAt(mi, bi)}: thinking block without signature dropped`)
            break
          }
          const env = unwrapSignature(sig)
          if (env) {
            const part: AssistantPart = { type: 'reasoning', text, origin: env.origin }
            if (env.signature) part.signature = env.signature
            if (env.encrypted) part.encrypted = env.encrypted
            if (env.id) part.id = env.id
            content.push(part)
          } else content.push({ type: 'reasoning', text, signature: sig, origin: P })
          break
        }
        case 'redacted_thinking':
          content.push({ type: 'reasoning', text: '', redacted: true, encrypted: str(b.data) ?? '', origin: P })
          break
        case 'tool_use':
          content.push(
            withOptions(
              { type: 'tool-call', id: str(b.id) ?? '', name: str(b.name) ?? '', arguments: stringifyArguments(b.input) },
              blockOptions(b, ['id', 'name', 'input']),
            ),
          )
          break
        case 'image': {
          const img = decodeMedia(b, blockAt(mi, bi), warnings)
          if (img && img.type === 'image') content.push(img)
          break
        }
        default:
          warnings.push(`${blockAt(mi, bi)}: assistant block type ${String(b.type)} dropped`)
      }
    })
    if (content.length) out.push({ role: 'assistant', content })
    return
  }

  // user: split into runs of tool results (→ tool message) and other content (→ user message), in order.
  let user: UserPart[] = []
  let tool: ToolResultPart[] = []
  const flushUser = () => {
    if (user.length) out.push({ role: 'user', content: user })
    user = []
  }
  const flushTool = () => {
    if (tool.length) out.push({ role: 'tool', content: tool })
    tool = []
  }
  blocks.forEach((b, bi) => {
    switch (b.type) {
      case 'text':
        flushTool()
        if (typeof b.text === 'string' && b.text !== '') user.push(withOptions({ type: 'text', text: b.text }, blockOptions(b, ['text'])))
        break
      case 'image':
      case 'document': {
        flushTool()
        const media = decodeMedia(b, blockAt(mi, bi), warnings)
        if (media) user.push(media)
        break
      }
      case 'tool_result': {
        flushUser()
        const part: ToolResultPart = {
          type: 'tool-result',
          callId: str(b.tool_use_id) ?? '',
          content: decodeToolResultContent(b.content, () => blockAt(mi, bi), warnings),
        }
        if (b.is_error === true) part.isError = true
        const po = blockOptions(b, ['tool_use_id', 'content', 'is_error'])
        if (po) part.providerOptions = po
        tool.push(part)
        break
      }
      default:
        warnings.push(`${blockAt(mi, bi)}: user block type ${String(b.type)} dropped`)
    }
  })
  flushTool()
  flushUser()
}

const EFFORTS: readonly string[] = ['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max']

export function decodeRequest(body: unknown, options: DecodeOptions = {}): Converted<IrRequest> {
  if (!options.checked) check(body)
  const b = body as Record<string, unknown>
  const warnings: string[] = []

  const system: TextPart[] = []
  if (typeof b.system === 'string') {
    if (b.system !== '') system.push({ type: 'text', text: b.system })
  } else {
    for (const raw of arr(b.system)) {
      const blk = rec(raw)
      if (blk.type === 'text' && typeof blk.text === 'string' && blk.text !== '')
        system.push(withOptions({ type: 'text', text: blk.text }, blockOptions(blk, ['text'])))
    }
  }

  const messages: Message[] = []
  arr(b.messages).forEach((m, i) => decodeMessage(rec(m), i, warnings, messages))

  const providerOptions: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(b)) if (!CONSUMED.has(k)) providerOptions[k] = v

  const req: IrRequest = {
    model: b.model as string,
    system,
    messages,
    tools: decodeTools(arr(b.tools)),
    sampling: {},
    maxOutputTokens: b.max_tokens as number,
    stream: b.stream === true,
    providerOptions: { [P]: providerOptions },
  }
  if (messages.some((m) => m.role === 'system')) providerOptions.__systemMessages = true
  req.sampling = decodeSampling(b, { temperature: 'temperature', topP: 'top_p', topK: 'top_k', stop: 'stop_sequences' })

  if (b.tool_choice !== undefined) {
    const { choice, parallel } = decodeToolChoice(b.tool_choice)
    if (choice) req.toolChoice = choice
    if (parallel !== undefined) req.parallelToolCalls = parallel
  }

  const thinking = rec(b.thinking)
  const oc = rec(b.output_config)
  if (b.thinking !== undefined || oc.effort !== undefined) {
    req.reasoning = {}
    if (thinking.type === 'enabled') {
      req.reasoning.enabled = true
      const budget = num(thinking.budget_tokens)
      if (budget !== undefined) req.reasoning.budgetTokens = budget
    } else if (thinking.type === 'adaptive') {
      req.reasoning.enabled = true
      req.reasoning.adaptive = true
    } else if (thinking.type === 'disabled') req.reasoning.enabled = false
    if (typeof thinking.display === 'string') req.reasoning.summary = thinking.display
    if (typeof oc.effort === 'string' && EFFORTS.includes(oc.effort)) req.reasoning.effort = oc.effort as ReasoningEffort
  }
  const format = rec(oc.format)
  if (format.type === 'json_schema') req.responseFormat = { type: 'json_schema', name: 'output', schema: rec(format.schema) }
  const ocRest: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(oc)) if (k !== 'effort' && k !== 'format') ocRest[k] = v
  if (b.output_config !== undefined) providerOptions.output_config = ocRest
  if (Object.keys(thinking).length) providerOptions.thinking = thinking

  const userId = str(rec(b.metadata).user_id)
  if (userId) req.user = userId
  return converted(req, warnings)
}
