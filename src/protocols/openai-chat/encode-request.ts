import {
  clientToolIndex,
  converted,
  isSpliced,
  SplicedTextError,
  wholePrefix,
  toolNames,
  UnsupportedFeatureError,
  type Converted,
  type FilePart,
  type ImagePart,
  type IrRequest,
  type ReasoningEffort,
  type TextPart,
} from '../../ir/index.ts'
import { dataUrl, foreignOpaque, rec, refusePrivateMedia } from '../shared.ts'

const P = 'openai-chat'
const HOSTED_SEARCH = new Set(['web_search', 'web_search_preview', 'googleSearch', 'google_search'])

/** Added when JSON mode is asked for by a prompt that never says "json" (OpenAI refuses that request). */
export const JSON_MODE_INSTRUCTION = 'Respond in JSON.'

/** Whether any message text (string content, text parts, tool outputs) says "json" (a cut text is read whole first). */
export function mentionsJson(items: Record<string, unknown>[]): boolean {
  const texts = (v: unknown): string =>
    typeof v === 'string' ? v : Array.isArray(v) ? v.map((p) => (typeof p?.text === 'string' ? p.text : '')).join(' ') : ''
  const all = items.map((m) => `${texts(m.content)} ${texts(m.output)}`)
  if (all.some((text) => /json/i.test(text))) return true
  if (all.some(isSpliced)) throw new SplicedTextError('the JSON mode check')
  return false
}

/** Anthropic-style thinking budget → an effort level. */
export function effortFromBudget(budget: number): ReasoningEffort {
  if (budget <= 4096) return 'low'
  if (budget <= 16384) return 'medium'
  return 'high'
}

function chatMediaPart(p: ImagePart | FilePart, where: string, warnings: string[]): Record<string, unknown> | undefined {
  const url = p.source.kind === 'url' ? p.source.url : dataUrl(p.mediaType ?? (p.type === 'image' ? 'image/png' : undefined), p.source.data)
  // image_url takes http(s) and data URLs only; a file part may name an OpenAI file id
  if (p.source.kind === 'url') refusePrivateMedia(url, where, 'chat completions', p.type === 'image' ? undefined : 'openai')
  if (p.type === 'image') return { type: 'image_url', image_url: p.detail ? { url, detail: p.detail } : { url } }
  if (p.mediaType?.startsWith('audio/') && p.source.kind === 'base64')
    return { type: 'input_audio', input_audio: { data: p.source.data, format: p.mediaType.slice(6) } }
  if (p.source.kind === 'url' && !p.source.url.startsWith('data:')) {
    if (/^file[-_]/.test(p.source.url)) return { type: 'file', file: { file_id: p.source.url } }
    warnings.push(`${where}: file URLs cannot be sent to a chat upstream, dropped`)
    return undefined
  }
  return { type: 'file', file: { file_data: url, ...(p.filename ? { filename: p.filename } : {}) } }
}

function joinText(parts: TextPart[]): string {
  return parts.map((p) => p.text).join('\n\n')
}

export function encodeRequest(req: IrRequest): Converted<Record<string, unknown>> {
  const warnings: string[] = []
  const own = rec(req.providerOptions[P])
  const body: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(own)) if (!k.startsWith('__')) body[k] = v
  body.model = req.model

  const names = toolNames(req.tools)
  const messages: Record<string, unknown>[] = []
  const sys = req.system.filter((p) => p.text !== '')
  if (sys.length) messages.push({ role: 'system', content: joinText(sys) })
  req.messages.forEach((m, mi) => {
    const where = `messages[${mi}]`
    switch (m.role) {
      case 'system': {
        const text = joinText(m.content.filter((p) => p.text !== ''))
        if (text) messages.push({ role: 'system', content: text })
        break
      }
      case 'user': {
        const onlyText = m.content.every((p) => p.type === 'text')
        if (onlyText) {
          const text = joinText(m.content as TextPart[])
          if (text) messages.push({ role: 'user', content: text })
          break
        }
        const parts: Record<string, unknown>[] = []
        m.content.forEach((p, pi) => {
          if (p.type === 'text') {
            if (p.text) parts.push({ type: 'text', text: p.text })
          } else {
            const x = chatMediaPart(p, `${where}.content[${pi}]`, warnings)
            if (x) parts.push(x)
          }
        })
        if (parts.length) messages.push({ role: 'user', content: parts })
        break
      }
      case 'assistant': {
        const msg: Record<string, unknown> = { role: 'assistant' }
        const texts: string[] = []
        const calls: Record<string, unknown>[] = []
        let reasoning = ''
        m.content.forEach((p, pi) => {
          if (p.type === 'text') texts.push(p.text)
          else if (p.type === 'tool-call') calls.push({ id: p.id, type: 'function', function: { name: names.call(p), arguments: p.arguments || '{}' } })
          else if (p.type === 'reasoning') {
            if (p.origin === P && p.text) reasoning += p.text
            else if (p.text || p.signature || p.encrypted) warnings.push(`${where}.content[${pi}]: reasoning from ${p.origin ?? 'an unknown origin'} dropped`)
          } else warnings.push(`${where}.content[${pi}]: image in an assistant turn dropped`)
        })
        const text = texts.join('')
        msg.content = text === '' ? null : text
        if (reasoning) msg.reasoning_content = reasoning
        if (calls.length) msg.tool_calls = calls
        if (msg.content !== null || calls.length) messages.push(msg)
        break
      }
      case 'tool':
        m.content.forEach((r, ri) => {
          const texts = r.content.filter((c): c is TextPart => c.type === 'text').map((c) => c.text)
          if (texts.length !== r.content.length) warnings.push(`${where}.content[${ri}]: non-text tool result content dropped`)
          let content = texts.join('\n')
          if (r.isError && content && !/^error/i.test(wholePrefix(content, 5))) content = `Error: ${content}`
          else if (r.isError && !content) content = 'Error'
          messages.push({ role: 'tool', tool_call_id: r.callId, content })
        })
        break
      case 'opaque':
        if (m.protocol === P) messages.push(m.raw)
        else foreignOpaque(m, where, P, warnings)
        break
    }
  })
  body.messages = messages

  const tools: Record<string, unknown>[] = []
  req.tools.forEach((t, i) => {
    if (t.kind === 'function') {
      const fn: Record<string, unknown> = { name: names.wire(t.namespace, t.name) }
      if (t.description !== undefined) fn.description = t.description
      fn.parameters = Object.keys(t.parameters).length ? t.parameters : { type: 'object', properties: {} }
      if (t.strict !== undefined) fn.strict = t.strict
      tools.push({ type: 'function', function: fn })
    } else if (t.protocol === P) tools.push(t.raw)
    else if (HOSTED_SEARCH.has(t.type) || t.type.startsWith('web_search_'))
      warnings.push(`tools[${clientToolIndex(req.tools, i)}]: hosted ${t.type} tool is not available on chat upstreams, dropped`)
    else {
      const where = `tools[${clientToolIndex(req.tools, i)}]`
      throw new UnsupportedFeatureError(`${where}: a ${t.protocol} "${t.type}" tool cannot be sent to a chat completions upstream`, where, P)
    }
  })
  if (tools.length) {
    body.tools = tools
    const tc = req.toolChoice
    if (tc) body.tool_choice = tc.type === 'tool' ? { type: 'function', function: { name: tc.name } } : tc.type
    if (req.parallelToolCalls !== undefined) body.parallel_tool_calls = req.parallelToolCalls
  } else if (req.toolChoice?.type === 'none') body.tool_choice = 'none'

  if (req.maxOutputTokens !== undefined) {
    if (own.__maxCompletionTokens === true || req.reasoning?.effort) body.max_completion_tokens = req.maxOutputTokens
    else body.max_tokens = req.maxOutputTokens
  }
  const s = req.sampling
  if (s.temperature !== undefined) body.temperature = s.temperature
  if (s.topP !== undefined) body.top_p = s.topP
  if (s.topK !== undefined) {
    if (own.top_k !== undefined || req.providerOptions[P]) body.top_k = s.topK
    else warnings.push('top_k: not supported by chat completions, dropped')
  }
  if (s.stop?.length) body.stop = s.stop
  if (s.seed !== undefined) body.seed = s.seed
  if (s.frequencyPenalty !== undefined) body.frequency_penalty = s.frequencyPenalty
  if (s.presencePenalty !== undefined) body.presence_penalty = s.presencePenalty

  const r = req.reasoning
  if (r) {
    if (r.effort) body.reasoning_effort = r.effort === 'max' ? 'xhigh' : r.effort
    else if (r.enabled === false) body.reasoning_effort = 'none'
    else if (r.budgetTokens !== undefined) body.reasoning_effort = effortFromBudget(r.budgetTokens)
  }
  // Reasoning models refuse max_tokens ("use max_completion_tokens instead"); a thinking budget from Anthropic
  // also sets reasoning_effort, so the cap moves with it.
  if (body.reasoning_effort !== undefined && body.max_tokens !== undefined) {
    body.max_completion_tokens = body.max_tokens
    delete body.max_tokens
  }

  const rf = req.responseFormat
  if (rf?.type === 'json_schema') {
    const js: Record<string, unknown> = { name: rf.name, schema: rf.schema }
    if (rf.strict !== undefined) js.strict = rf.strict
    if (rf.description !== undefined) js.description = rf.description
    body.response_format = { type: 'json_schema', json_schema: js }
  } else if (rf) body.response_format = { type: rf.type }
  // OpenAI refuses JSON mode unless the messages mention "json" (other protocols' clients need not): say it.
  if (rf?.type === 'json_object' && !mentionsJson(messages)) {
    messages.unshift({ role: 'system', content: JSON_MODE_INSTRUCTION })
    warnings.push('response_format: json_object needs the word JSON in the messages, a system instruction was added')
  }

  // A chat client's own `user` goes on as sent; another protocol's end-user id (Claude Code's metadata.user_id
  // is a ~150-character JSON text) is dropped when longer than 64 characters: OpenRouter refuses more than 128
  // and OpenAI has been seen refusing more than 64 (the Responses encoder applies the same rule).
  if (req.user && (req.providerOptions[P] !== undefined || req.user.length <= 64)) body.user = req.user
  else if (req.user) warnings.push(`user: an end-user id of ${req.user.length} characters is too long for chat upstreams, dropped`)
  body.stream = req.stream
  // The gateway bills from usage, so always ask a streaming upstream for it.
  if (req.stream) body.stream_options = { ...rec(own.stream_options), include_usage: true }
  return converted(body, warnings)
}
