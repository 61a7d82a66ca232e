import {
  clientToolIndex,
  converted,
  wholePrefix,
  splitLeadingSystem,
  UnsupportedFeatureError,
  type Converted,
  type FilePart,
  type ImagePart,
  type IrRequest,
  type TextPart,
} from '../../ir/index.ts'
import { effortFromBudget, JSON_MODE_INSTRUCTION, mentionsJson } from '../openai-chat/encode-request.ts'
import { dataUrl, foreignOpaque, rec, refusePrivateMedia } from '../shared.ts'

const P = 'openai-responses'

function mediaPart(p: ImagePart | FilePart, where: string, warnings: string[]): Record<string, unknown> | undefined {
  if (p.source.kind === 'url') refusePrivateMedia(p.source.url, where, 'Responses', 'openai')
  if (p.type === 'image') {
    const part: Record<string, unknown> =
      p.source.kind === 'url'
        ? /^file[-_]/.test(p.source.url)
          ? { type: 'input_image', file_id: p.source.url }
          : { type: 'input_image', image_url: p.source.url }
        : { type: 'input_image', image_url: dataUrl(p.mediaType ?? 'image/png', p.source.data) }
    part.detail = p.detail ?? 'auto'
    return part
  }
  if (p.mediaType?.startsWith('audio/')) {
    warnings.push(`${where}: audio input is not supported by Responses, dropped`)
    return undefined
  }
  if (p.source.kind === 'url') {
    if (/^file[-_]/.test(p.source.url)) return { type: 'input_file', file_id: p.source.url }
    if (p.source.url.startsWith('data:')) return { type: 'input_file', file_data: p.source.url, filename: p.filename ?? 'file' }
    return { type: 'input_file', file_url: p.source.url }
  }
  return { type: 'input_file', file_data: dataUrl(p.mediaType ?? 'application/pdf', p.source.data), filename: p.filename ?? 'file' }
}

function userContent(parts: Array<TextPart | ImagePart | FilePart>, where: string, warnings: string[]): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = []
  parts.forEach((p, i) => {
    if (p.type === 'text') {
      if (p.text !== '') out.push({ type: 'input_text', text: p.text })
    } else {
      const m = mediaPart(p, `${where}[${i}]`, warnings)
      if (m) out.push(m)
    }
  })
  return out
}

export function encodeRequest(req: IrRequest): Converted<Record<string, unknown>> {
  const warnings: string[] = []
  const own = req.providerOptions[P]
  const fromSelf = own !== undefined
  const body: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(rec(own))) if (!k.startsWith('__') && k !== 'reasoning' && k !== 'text' && k !== 'tool_choice') body[k] = v
  body.model = req.model

  // Another protocol's leading system turns (chat `system` messages) are the Responses `instructions`; a
  // Responses client's own input items stay where it put them.
  const { system, messages } = fromSelf ? { system: req.system, messages: req.messages } : splitLeadingSystem(req)
  const sys = system.filter((p) => p.text !== '')
  if (sys.length) body.instructions = sys.map((p) => p.text).join('\n\n')

  const input: Record<string, unknown>[] = []
  const idOf = (po: Record<string, unknown> | undefined): Record<string, unknown> => {
    if (!fromSelf) return {}
    const out: Record<string, unknown> = {}
    if (typeof po?.status === 'string') out.status = po.status
    if (typeof po?.id === 'string') out.id = po.id
    return out
  }
  messages.forEach((m, mi) => {
    const where = `messages[${mi + req.messages.length - messages.length}]`
    switch (m.role) {
      case 'system': {
        const po = rec(m.providerOptions?.[P])
        const content = m.content.filter((p) => p.text !== '').map((p) => ({ type: 'input_text', text: p.text }))
        if (content.length) input.push({ type: 'message', ...idOf(po), role: typeof po.role === 'string' ? po.role : 'developer', content })
        break
      }
      case 'user': {
        const content = userContent(m.content, `${where}.content`, warnings)
        if (content.length) input.push({ type: 'message', ...idOf(rec(m.providerOptions?.[P])), role: 'user', content })
        break
      }
      case 'assistant': {
        let text: Record<string, unknown> | undefined
        m.content.forEach((p, pi) => {
          const po = rec(p.providerOptions?.[P])
          if (p.type !== 'text') text = undefined
          switch (p.type) {
            case 'text':
              if (p.text === '') break
              if (!text || (fromSelf && typeof po.id === 'string')) {
                text = { type: 'message', ...idOf(po), role: 'assistant', content: [] as unknown[] }
                input.push(text)
              }
              ;(text.content as unknown[]).push({ type: 'output_text', text: p.text, annotations: [] })
              break
            case 'reasoning':
              if (p.origin === P && (p.encrypted || p.id)) {
                const item: Record<string, unknown> = { type: 'reasoning' }
                if (p.id) item.id = p.id
                item.summary = p.text ? [{ type: 'summary_text', text: p.text }] : []
                if (p.encrypted) item.encrypted_content = p.encrypted
                input.push(item)
              } else if (p.text || p.signature || p.encrypted)
                warnings.push(`${where}.content[${pi}]: reasoning from ${p.origin ?? 'an unknown origin'} dropped`)
              break
            case 'tool-call':
              if (po.type === 'custom_tool_call') input.push({ type: 'custom_tool_call', ...idOf(po), call_id: p.id, name: p.name, input: p.arguments })
              else
                input.push({
                  type: 'function_call',
                  ...idOf(po),
                  call_id: p.id,
                  name: p.name,
                  arguments: p.arguments || '{}',
                  ...(p.namespace ? { namespace: p.namespace } : {}),
                })
              break
            case 'image':
              warnings.push(`${where}.content[${pi}]: image in an assistant turn dropped`)
              break
          }
        })
        break
      }
      case 'tool':
        m.content.forEach((r, ri) => {
          const po = rec(r.providerOptions?.[P])
          const onlyText = r.content.every((c) => c.type === 'text')
          let output: unknown = onlyText
            ? r.content.map((c) => (c as TextPart).text).join('\n')
            : userContent(r.content, `${where}.content[${ri}].content`, warnings)
          if (r.isError && typeof output === 'string' && !/^error/i.test(wholePrefix(output, 5))) output = output ? `Error: ${output}` : 'Error'
          input.push({ type: po.type === 'custom_tool_call_output' ? 'custom_tool_call_output' : 'function_call_output', ...idOf(po), call_id: r.callId, output })
        })
        break
      case 'opaque':
        if (m.protocol === P) input.push(m.raw)
        else foreignOpaque(m, where, P, warnings)
        break
    }
  })
  body.input = input

  const tools: Record<string, unknown>[] = []
  /** The namespace tool the previous function tool went into, so its fellow members join it. */
  let group: { name: string; tools: Record<string, unknown>[] } | undefined
  req.tools.forEach((t, i) => {
    if (t.kind === 'function') {
      const tool: Record<string, unknown> = { type: 'function', name: t.name }
      if (t.description !== undefined) tool.description = t.description
      tool.parameters = Object.keys(t.parameters).length ? t.parameters : { type: 'object', properties: {} }
      // Responses defaults to strict; schemas from other protocols rarely meet its rules.
      tool.strict = t.strict ?? false
      if (!t.namespace) {
        group = undefined
        tools.push(tool)
      } else if (group?.name === t.namespace) group.tools.push(tool)
      else {
        group = { name: t.namespace, tools: [tool] }
        tools.push({ type: 'namespace', description: '', ...rec(rec(t.providerOptions?.[P]).namespace), name: t.namespace, tools: group.tools })
      }
      return
    }
    group = undefined
    if (t.protocol === P) tools.push(t.raw)
    else if (t.type.startsWith('web_search') || t.type === 'googleSearch' || t.type === 'google_search') {
      tools.push({ type: 'web_search' })
      warnings.push(`tools[${clientToolIndex(req.tools, i)}]: ${t.protocol} ${t.type} mapped to the Responses web_search tool`)
    } else {
      const where = `tools[${clientToolIndex(req.tools, i)}]`
      throw new UnsupportedFeatureError(`${where}: a ${t.protocol} "${t.type}" tool cannot be sent to a Responses upstream`, where, P)
    }
  })
  if (tools.length) body.tools = tools
  const tc = req.toolChoice
  if (tc) body.tool_choice = tc.type === 'tool' ? { type: 'function', name: tc.name } : tc.type
  else if (rec(own).tool_choice !== undefined) body.tool_choice = rec(own).tool_choice
  if (req.parallelToolCalls !== undefined) body.parallel_tool_calls = req.parallelToolCalls

  if (req.maxOutputTokens !== undefined) body.max_output_tokens = req.maxOutputTokens
  const s = req.sampling
  if (s.temperature !== undefined) body.temperature = s.temperature
  if (s.topP !== undefined) body.top_p = s.topP
  if (s.topK !== undefined) warnings.push('top_k: not supported by Responses, dropped')
  if (s.stop?.length) warnings.push('stop: not supported by Responses, dropped')
  if (s.seed !== undefined || s.frequencyPenalty !== undefined || s.presencePenalty !== undefined)
    warnings.push('seed/frequency_penalty/presence_penalty: not supported by Responses, dropped')

  const r = req.reasoning
  const reasoning: Record<string, unknown> = { ...rec(rec(own).reasoning) }
  if (r) {
    if (r.effort) reasoning.effort = r.effort === 'max' ? 'xhigh' : r.effort
    else if (r.enabled === false) reasoning.effort = 'none'
    else if (r.budgetTokens !== undefined) reasoning.effort = effortFromBudget(r.budgetTokens)
    if (r.summary && ['auto', 'concise', 'detailed'].includes(r.summary)) reasoning.summary = r.summary
    else if (!fromSelf && r.enabled !== false) reasoning.summary = 'auto'
  }
  if (Object.keys(reasoning).length) body.reasoning = reasoning
  if (!fromSelf) {
    // Stateless by default: nothing stored upstream; reasoning comes back encrypted so it can be replayed.
    body.store = false
    if (r && r.enabled !== false) body.include = ['reasoning.encrypted_content']
  }

  const text: Record<string, unknown> = { ...rec(rec(own).text) }
  const rf = req.responseFormat
  if (rf?.type === 'json_schema') {
    const f: Record<string, unknown> = { type: 'json_schema', name: rf.name, schema: rf.schema }
    if (rf.strict !== undefined) f.strict = rf.strict
    if (rf.description !== undefined) f.description = rf.description
    text.format = f
  } else if (rf) text.format = { type: rf.type }
  if (Object.keys(text).length) body.text = text
  // OpenAI refuses JSON mode unless the input mentions "json" (other protocols' clients need not): say it.
  if (rf?.type === 'json_object' && !mentionsJson([{ content: body.instructions }, ...input])) {
    body.instructions = typeof body.instructions === 'string' ? `${body.instructions}\n\n${JSON_MODE_INSTRUCTION}` : JSON_MODE_INSTRUCTION
    warnings.push('text.format: json_object needs the word JSON in the input, an instruction was added')
  }

  if (req.user && (fromSelf || req.user.length <= 64)) body.user = req.user
  body.stream = req.stream
  return converted(body, warnings)
}
