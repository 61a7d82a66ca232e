import {
  clientToolIndex,
  converted,
  parseArguments,
  splitLeadingSystem,
  toolNames,
  UnsupportedFeatureError,
  type Converted,
  type FilePart,
  type ImagePart,
  type IrRequest,
} from '../../ir/index.ts'
import { foreignOpaque, imageTypeFromUrl, parseDataUrl, rec, refusePrivateMedia } from '../shared.ts'

const P = 'gemini'
const EFFORT_BUDGET: Record<string, number> = { minimal: 512, low: 2048, medium: 8192, high: 24576, xhigh: 32768, max: 32768 }

type GPart = Record<string, unknown>

/** Google's documented dummy for function calls Gemini did not produce (https://ai.google.dev/gemini-api/docs/thought-signatures). */
const SKIP_SIGNATURE = 'skip_thought_signature_validator'

function sigOf(p: { providerOptions?: Record<string, Record<string, unknown> | undefined> }): GPart {
  const sig = rec(p.providerOptions?.[P]).thoughtSignature
  return typeof sig === 'string' ? { thoughtSignature: sig } : {}
}

/**
 * Media by URL goes as fileData: Gemini fetches public http(s) URLs itself since January 2026
 * (https://ai.google.dev/gemini-api/docs/file-input-methods), and its own file/Cloud Storage URIs.
 */
function mediaPart(p: ImagePart | FilePart, where: string): GPart {
  if (p.source.kind === 'url') {
    const data = parseDataUrl(p.source.url)
    if (data) return { inlineData: { mimeType: data.mediaType, data: data.data } }
    refusePrivateMedia(p.source.url, where, 'Gemini', 'gemini')
    const guess = p.type === 'image' ? (imageTypeFromUrl(p.source.url) ?? 'image/jpeg') : 'application/pdf'
    return { fileData: { mimeType: p.mediaType ?? guess, fileUri: p.source.url } }
  }
  return { inlineData: { mimeType: p.mediaType ?? (p.type === 'image' ? 'image/png' : 'application/octet-stream'), data: p.source.data } }
}

export function encodeRequest(req: IrRequest): Converted<Record<string, unknown>> {
  const warnings: string[] = []
  const own = rec(req.providerOptions[P])
  const body: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(own)) if (!k.startsWith('__') && k !== 'generationConfig' && k !== 'toolConfig') body[k] = v

  const { system, messages } = splitLeadingSystem(req)
  const sys = system.filter((p) => p.text !== '').map((p) => ({ text: p.text }))
  if (sys.length) body.systemInstruction = { parts: sys }

  // Flat wire names (namespaced Responses tools become `<namespace>__<name>`); tool results name the call's function.
  const wireNames = toolNames(req.tools)
  const names = new Map<string, string>()
  for (const m of req.messages) if (m.role === 'assistant') for (const p of m.content) if (p.type === 'tool-call') names.set(p.id, wireNames.call(p))
  const contents: { role: string; parts: GPart[] }[] = []
  const push = (role: string, parts: GPart[]) => {
    if (!parts.length) return
    const last = contents[contents.length - 1]
    if (last && last.role === role) last.parts.push(...parts)
    else contents.push({ role, parts })
  }

  messages.forEach((m, mi) => {
    const where = `messages[${mi}]`
    switch (m.role) {
      case 'system': {
        const parts = m.content.filter((p) => p.text !== '').map((p) => ({ text: p.text }))
        if (parts.length) warnings.push(`${where}: mid-conversation system message sent as user text`)
        push('user', parts)
        break
      }
      case 'user':
        push(
          'user',
          m.content.flatMap((p, pi) => (p.type === 'text' ? (p.text !== '' ? [{ text: p.text }] : []) : [mediaPart(p, `${where}.content[${pi}]`)])),
        )
        break
      case 'assistant': {
        const parts: GPart[] = []
        m.content.forEach((p, pi) => {
          switch (p.type) {
            case 'text':
              if (p.text !== '' || sigOf(p).thoughtSignature) parts.push({ text: p.text, ...sigOf(p) })
              break
            case 'reasoning':
              if (p.origin === P && p.signature) parts.push({ text: p.text, thought: true, thoughtSignature: p.signature })
              else if (p.origin !== P && (p.text || p.signature || p.encrypted))
                warnings.push(`${where}.content[${pi}]: reasoning from ${p.origin ?? 'an unknown origin'} dropped`)
              break
            case 'tool-call':
              parts.push({ functionCall: { name: wireNames.call(p), args: parseArguments(p.arguments) }, ...sigOf(p) })
              break
            case 'image':
              parts.push(mediaPart(p, `${where}.content[${pi}]`))
              break
          }
        })
        // Gemini 3 refuses a replayed model turn whose first functionCall has no thoughtSignature. Calls that
        // came through another protocol's client lost theirs: send the documented validator bypass instead.
        const firstCall = parts.find((part) => part.functionCall !== undefined)
        if (firstCall && !firstCall.thoughtSignature) {
          firstCall.thoughtSignature = SKIP_SIGNATURE
          warnings.push(`${where}: function call without a Gemini thought signature, sent with the validator bypass`)
        }
        push('model', parts)
        break
      }
      case 'tool': {
        const parts: GPart[] = m.content.map((r, ri) => {
          let name = r.name ?? names.get(r.callId)
          if (!name) {
            warnings.push(`${where}.content[${ri}]: no tool call found for ${r.callId}; using the call id as function name`)
            name = r.callId
          }
          const text = r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n')
          if (r.content.some((c) => c.type !== 'text')) warnings.push(`${where}.content[${ri}]: non-text tool result content dropped`)
          return { functionResponse: { name, response: r.isError ? { error: text } : { output: text } } }
        })
        push('user', parts)
        break
      }
      case 'opaque':
        if (m.protocol === P) push(String(m.raw.role ?? 'user'), arr(m.raw.parts))
        else foreignOpaque(m, where, P, warnings)
        break
    }
  })
  body.contents = contents

  const decls: GPart[] = []
  const tools: GPart[] = []
  req.tools.forEach((t, i) => {
    if (t.kind === 'function') {
      const d: GPart = { name: wireNames.wire(t.namespace, t.name) }
      if (t.description !== undefined) d.description = t.description
      if (Object.keys(t.parameters).length) {
        const { $schema: _ignored, ...schema } = t.parameters
        d.parametersJsonSchema = schema
      }
      decls.push(d)
    } else if (t.protocol === P) tools.push(t.raw)
    else if (t.type.startsWith('web_search')) {
      // generateContent refuses googleSearch next to function declarations ("Tool use with function calling is
      // unsupported"), so hosted search is only mapped when the request has no functions.
      if (req.tools.some((x) => x.kind === 'function')) warnings.push(`tools[${clientToolIndex(req.tools, i)}]: hosted ${t.type} tool cannot be combined with functions on Gemini, dropped`)
      else {
        tools.push({ googleSearch: {} })
        warnings.push(`tools[${clientToolIndex(req.tools, i)}]: ${t.protocol} ${t.type} mapped to googleSearch`)
      }
    } else {
      const where = `tools[${clientToolIndex(req.tools, i)}]`
      throw new UnsupportedFeatureError(`${where}: a ${t.protocol} "${t.type}" tool cannot be sent to a Gemini upstream`, where, P)
    }
  })
  if (decls.length) tools.unshift({ functionDeclarations: decls })
  if (tools.length) body.tools = tools

  const tc = req.toolChoice
  if (tc && decls.length) {
    const fcc: GPart =
      tc.type === 'auto' ? { mode: 'AUTO' } : tc.type === 'none' ? { mode: 'NONE' } : tc.type === 'required' ? { mode: 'ANY' } : { mode: 'ANY', allowedFunctionNames: [tc.name] }
    body.toolConfig = { ...rec(own.toolConfig), functionCallingConfig: fcc }
  } else if (own.toolConfig !== undefined) body.toolConfig = own.toolConfig
  if (req.parallelToolCalls === false) warnings.push('parallel_tool_calls: Gemini has no switch for parallel calls, ignored')

  const gc: GPart = { ...rec(own.generationConfig) }
  const s = req.sampling
  if (s.temperature !== undefined) gc.temperature = s.temperature
  if (s.topP !== undefined) gc.topP = s.topP
  if (s.topK !== undefined) gc.topK = s.topK
  if (s.stop?.length) gc.stopSequences = s.stop
  if (s.seed !== undefined) gc.seed = s.seed
  if (s.presencePenalty !== undefined) gc.presencePenalty = s.presencePenalty
  if (s.frequencyPenalty !== undefined) gc.frequencyPenalty = s.frequencyPenalty
  if (req.maxOutputTokens !== undefined) gc.maxOutputTokens = req.maxOutputTokens
  const rf = req.responseFormat
  if (rf?.type === 'json_schema') {
    gc.responseMimeType = 'application/json'
    const { $schema: _ignored, ...schema } = rf.schema
    gc.responseJsonSchema = schema
  } else if (rf?.type === 'json_object') gc.responseMimeType = 'application/json'
  const r = req.reasoning
  if (r) {
    const tcfg: GPart = {}
    if (r.enabled === false || r.effort === 'none') tcfg.thinkingBudget = 0
    else {
      if (r.budgetTokens !== undefined) tcfg.thinkingBudget = r.budgetTokens
      else if (r.adaptive && !r.effort) tcfg.thinkingBudget = -1
      else if (r.effort) tcfg.thinkingBudget = EFFORT_BUDGET[r.effort] ?? 8192
      tcfg.includeThoughts = true
    }
    gc.thinkingConfig = tcfg
  }
  if (Object.keys(gc).length) body.generationConfig = gc
  return converted(body, warnings)
}

function arr(v: unknown): GPart[] {
  return Array.isArray(v) ? (v as GPart[]) : []
}
