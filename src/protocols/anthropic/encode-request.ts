import {
  clientToolIndex,
  converted,
  parseArguments,
  toolNames,
  splitLeadingSystem,
  UnsupportedFeatureError,
  type Converted,
  type FilePart,
  type ImagePart,
  type IrRequest,
  type Part,
  type TextPart,
  wholeText,
} from '../../ir/index.ts'
import { foreignOpaque, parseDataUrl, rec, refusePrivateMedia } from '../shared.ts'

const P = 'anthropic'
/** Default `max_tokens` when the client did not say (the Messages API requires one). */
export const DEFAULT_MAX_TOKENS = 8192
/** Appended to the system prompt for a `json_object` response format (Anthropic has no schema-less JSON mode). */
export const JSON_OBJECT_INSTRUCTION = 'Respond with a single valid JSON object only: no prose before or after it, no code fences.'
const EFFORT_BUDGET: Record<string, number> = { minimal: 1024, low: 4096, medium: 10000, high: 24000, xhigh: 32000, max: 48000 }

type Block = Record<string, unknown>

function opts(p: { providerOptions?: Part['providerOptions'] }): Record<string, unknown> {
  return rec(p.providerOptions?.[P])
}

function textBlock(p: TextPart): Block {
  return { type: 'text', text: p.text, ...opts(p) }
}

function mediaBlock(p: ImagePart | FilePart, where: string, warnings: string[]): Block | undefined {
  let source: Block
  if (p.source.kind === 'url') {
    refusePrivateMedia(p.source.url, where, 'Anthropic')
    const data = parseDataUrl(p.source.url)
    source = data ? { type: 'base64', media_type: data.mediaType, data: data.data } : { type: 'url', url: p.source.url }
  } else source = { type: 'base64', media_type: p.mediaType ?? (p.type === 'image' ? 'image/png' : 'application/pdf'), data: p.source.data }
  if (p.type === 'image') return { type: 'image', source, ...opts(p) }
  const mt = String(source.media_type ?? p.mediaType ?? 'application/pdf')
  if (mt === 'application/pdf') return { type: 'document', source, ...(p.filename ? { title: p.filename } : {}), ...opts(p) }
  if (mt.startsWith('text/') && source.type === 'base64') {
    return {
      type: 'document',
      source: { type: 'text', media_type: 'text/plain', data: Buffer.from(wholeText(String(source.data), where), 'base64').toString('utf8') },
      ...(p.filename ? { title: p.filename } : {}),
      ...opts(p),
    }
  }
  warnings.push(`${where}: file of type ${mt} cannot be sent to an Anthropic upstream, dropped`)
  return undefined
}

export function encodeRequest(req: IrRequest): Converted<Record<string, unknown>> {
  const warnings: string[] = []
  const own = rec(req.providerOptions[P])
  const body: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(own)) if (!k.startsWith('__') && k !== 'thinking' && k !== 'output_config') body[k] = v
  body.model = req.model

  const { system, messages } = splitLeadingSystem(req)
  const sys = system.filter((p) => p.text !== '').map(textBlock)
  if (sys.length) body.system = sys

  const names = toolNames(req.tools)
  const keepSystemRole = own.__systemMessages === true
  const out: { role: string; content: Block[] }[] = []
  const push = (role: string, blocks: Block[]) => {
    if (!blocks.length) return
    const last = out[out.length - 1]
    if (last && last.role === role && role !== 'system') last.content.push(...blocks)
    else out.push({ role, content: blocks })
  }

  messages.forEach((m, mi) => {
    const where = `messages[${mi}]`
    switch (m.role) {
      case 'system': {
        const blocks = m.content.filter((p) => p.text !== '').map(textBlock)
        if (keepSystemRole) push('system', blocks)
        else {
          if (blocks.length) warnings.push(`${where}: mid-conversation system message sent as a user text block`)
          push(
            'user',
            blocks.map((b) => ({ ...b, text: `<system-reminder>\n${String(b.text)}\n</system-reminder>` })),
          )
        }
        break
      }
      case 'user': {
        const blocks: Block[] = []
        m.content.forEach((p, pi) => {
          if (p.type === 'text') {
            if (p.text !== '') blocks.push(textBlock(p))
          } else {
            const b = mediaBlock(p, `${where}.content[${pi}]`, warnings)
            if (b) blocks.push(b)
          }
        })
        push('user', blocks)
        break
      }
      case 'assistant': {
        const blocks: Block[] = []
        m.content.forEach((p, pi) => {
          const at = `${where}.content[${pi}]`
          switch (p.type) {
            case 'text':
              if (p.text !== '') blocks.push(textBlock(p))
              break
            case 'reasoning':
              if (p.origin === P && p.redacted && p.encrypted) blocks.push({ type: 'redacted_thinking', data: p.encrypted })
              else if (p.origin === P && p.signature) blocks.push({ type: 'thinking', thinking: p.text, signature: p.signature })
              else warnings.push(`${at}: reasoning from ${p.origin ?? 'an unknown origin'} cannot be verified by Anthropic, dropped`)
              break
            case 'tool-call':
              blocks.push({ type: 'tool_use', id: p.id, name: names.call(p), input: parseArguments(p.arguments), ...opts(p) })
              break
            case 'image':
              warnings.push(`${at}: image in an assistant turn dropped`)
              break
          }
        })
        push('assistant', blocks)
        break
      }
      case 'tool': {
        const blocks: Block[] = m.content.map((r, ri) => {
          const content: Block[] = []
          r.content.forEach((c, ci) => {
            if (c.type === 'text') {
              if (c.text !== '') content.push(textBlock(c))
            } else {
              const b = mediaBlock(c, `${where}.content[${ri}].content[${ci}]`, warnings)
              if (b) content.push(b)
            }
          })
          const block: Block = { type: 'tool_result', tool_use_id: r.callId }
          if (content.length === 1 && content[0]!.type === 'text' && Object.keys(content[0]!).length === 2) block.content = content[0]!.text
          else if (content.length) block.content = content
          if (r.isError) block.is_error = true
          return { ...block, ...opts(r) }
        })
        push('user', blocks)
        break
      }
      case 'opaque':
        if (m.protocol === P) push(String(m.raw.role ?? 'user'), [m.raw])
        else foreignOpaque(m, where, P, warnings)
        break
    }
  })
  body.messages = out

  body.max_tokens = req.maxOutputTokens ?? DEFAULT_MAX_TOKENS
  if (req.maxOutputTokens === undefined) warnings.push(`max_tokens: not given, using ${DEFAULT_MAX_TOKENS}`)
  const maxTokens = body.max_tokens as number

  // reasoning
  const r = req.reasoning
  const outputConfig: Record<string, unknown> = { ...rec(own.output_config) }
  let thinkingOn = false
  if (r && r.enabled !== false && r.effort !== 'none') {
    if (r.adaptive) {
      body.thinking = { ...rec(own.thinking), type: 'adaptive' }
      thinkingOn = true
    } else if (r.budgetTokens !== undefined || r.enabled || (r.effort && r.effort !== 'minimal')) {
      let budget = r.budgetTokens ?? EFFORT_BUDGET[r.effort ?? 'medium'] ?? 10000
      if (budget >= maxTokens) budget = maxTokens - 1
      if (budget >= 1024) {
        body.thinking = { ...rec(own.thinking), type: 'enabled', budget_tokens: budget }
        thinkingOn = true
      } else warnings.push(`thinking: max_tokens ${maxTokens} leaves no room for a thinking budget ≥ 1024, thinking disabled`)
    }
    if (r.effort && own.output_config !== undefined) outputConfig.effort = r.effort
    else if (r.effort && r.adaptive) outputConfig.effort = r.effort
  } else if (r && r.enabled === false && rec(own.thinking).type === 'disabled') body.thinking = { type: 'disabled' }

  const s = req.sampling
  if (s.temperature !== undefined) {
    if (thinkingOn && s.temperature !== 1) warnings.push('temperature: not allowed with thinking, dropped')
    else if (s.temperature > 1) {
      warnings.push(`temperature: ${s.temperature} clamped to 1`)
      body.temperature = 1
    } else body.temperature = s.temperature
  }
  if (s.topP !== undefined) body.top_p = s.topP
  if (s.topK !== undefined) {
    if (thinkingOn) warnings.push('top_k: not allowed with thinking, dropped')
    else body.top_k = s.topK
  }
  if (s.stop?.length) body.stop_sequences = s.stop
  if (s.seed !== undefined || s.frequencyPenalty !== undefined || s.presencePenalty !== undefined)
    warnings.push('seed/frequency_penalty/presence_penalty: not supported by Anthropic, dropped')

  // tools
  const tools: Block[] = []
  req.tools.forEach((t, i) => {
    if (t.kind === 'function') {
      const tool: Block = { name: names.wire(t.namespace, t.name) }
      if (t.description !== undefined) tool.description = t.description
      tool.input_schema = Object.keys(t.parameters).length ? t.parameters : { type: 'object', properties: {} }
      if (t.strict) tool.strict = true
      tools.push({ ...tool, ...opts(t) })
    } else if (t.protocol === P) tools.push(t.raw)
    else if (t.type === 'web_search' || t.type === 'web_search_preview' || t.type === 'googleSearch' || t.type === 'google_search')
      warnings.push(`tools[${clientToolIndex(req.tools, i)}]: hosted ${t.type} tool is not available on Anthropic upstreams, dropped`)
    else {
      const where = `tools[${clientToolIndex(req.tools, i)}]`
      throw new UnsupportedFeatureError(`${where}: a ${t.protocol} "${t.type}" tool cannot be sent to an Anthropic upstream`, where, P)
    }
  })
  if (tools.length) body.tools = tools

  const tc = req.toolChoice
  let choice: Block | undefined
  if (tc) {
    if (tc.type === 'auto') choice = { type: 'auto' }
    else if (tc.type === 'none') choice = { type: 'none' }
    else if (tc.type === 'required') choice = { type: 'any' }
    else choice = { type: 'tool', name: tc.name }
  }
  if (req.parallelToolCalls === false && tools.length) choice = { ...(choice ?? { type: 'auto' }), disable_parallel_tool_use: true }
  if (choice && tools.length) body.tool_choice = choice
  else if (choice && choice.type === 'none') body.tool_choice = choice

  const rf = req.responseFormat
  if (rf?.type === 'json_schema') outputConfig.format = { type: 'json_schema', schema: rf.schema }
  else if (rf?.type === 'json_object') {
    // No schema-less JSON mode: output_config.format needs a schema whose objects are closed. Ask in the system
    // prompt instead, as Anthropic's guide to consistent output suggests, and say so.
    body.system = [...((body.system as Block[] | undefined) ?? []), { type: 'text', text: JSON_OBJECT_INSTRUCTION }]
    warnings.push('response_format: json_object has no Anthropic equivalent, asked for in the system prompt')
  }
  if (Object.keys(outputConfig).length) body.output_config = outputConfig

  if (req.user && body.metadata === undefined) body.metadata = { user_id: req.user }
  body.stream = req.stream
  return converted(body, warnings)
}
