import {
  converted,
  type AssistantPart,
  type Converted,
  type IrRequest,
  type Message,
  type TextPart,
  type Tool,
  type ToolResultPart,
  type UserPart,
} from '../../ir/index.ts'
import type { DecodeOptions } from '../types.ts'
import { unwrapSignature } from '../envelope.ts'
import { arr, num, rec, str, validator, decodeSampling } from '../shared.ts'
import { GeminiRequest } from './wire.ts'

const check = validator(GeminiRequest)
const P = 'gemini'

const CONSUMED = new Set(['model', 'contents', 'systemInstruction', 'tools', 'toolConfig', 'generationConfig'])
const GEN_CONSUMED = new Set([
  'temperature', 'topP', 'topK', 'maxOutputTokens', 'stopSequences', 'seed', 'presencePenalty', 'frequencyPenalty',
  'responseMimeType', 'responseSchema', 'responseJsonSchema', 'thinkingConfig',
])

/**
 * Gemini function calls carry no ids (or optional ones). Calls get `id` when present, else a synthesized
 * `gemini_call_<n>` in conversation order; a functionResponse takes its `id`, else the oldest unanswered call
 * with the same name.
 */
class CallIds {
  private n = 0
  private pending = new Map<string, string[]>()

  call(name: string, id?: string): string {
    const callId = id || `gemini_call_${this.n++}`
    const q = this.pending.get(name) ?? []
    q.push(callId)
    this.pending.set(name, q)
    return callId
  }

  response(name: string, id?: string): string {
    const q = this.pending.get(name) ?? []
    if (id) {
      const i = q.indexOf(id)
      if (i >= 0) q.splice(i, 1)
      return id
    }
    return q.shift() ?? `gemini_call_${this.n++}`
  }
}

/**
 * Gemini's own schema dialect (`parameters`, `responseSchema`: an OpenAPI subset with upper-case `type` values
 * such as `OBJECT`, `nullable`, `propertyOrdering`) → JSON Schema, which every other vendor expects
 * (`parametersJsonSchema` / `responseJsonSchema` already are JSON Schema and are kept as sent).
 */
function jsonSchemaFromGemini(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(jsonSchemaFromGemini)
  if (typeof v !== 'object' || v === null) return v
  const s = v as Record<string, unknown>
  const out: Record<string, unknown> = {}
  for (const [k, x] of Object.entries(s)) {
    if (k === 'nullable' || k === 'propertyOrdering' || k === 'example') continue
    if (k === 'type' && typeof x === 'string') {
      if (x.toUpperCase() !== 'TYPE_UNSPECIFIED') out.type = x.toLowerCase()
    } else if (k === 'properties' && typeof x === 'object' && x !== null)
      out.properties = Object.fromEntries(Object.entries(x).map(([name, p]) => [name, jsonSchemaFromGemini(p)]))
    else if (k === 'items' || k === 'anyOf') out[k] = jsonSchemaFromGemini(x)
    else out[k] = x
  }
  if (s.nullable === true && typeof out.type === 'string') out.type = [out.type, 'null']
  return out
}

export function signatureOptions(part: Record<string, unknown>): { gemini: { thoughtSignature: string } } | undefined {
  const sig = str(part.thoughtSignature)
  return sig ? { gemini: { thoughtSignature: sig } } : undefined
}

function mediaPart(p: Record<string, unknown>): UserPart | undefined {
  if (p.inlineData !== undefined) {
    const d = rec(p.inlineData)
    const mediaType = str(d.mimeType) ?? 'application/octet-stream'
    const source = { kind: 'base64' as const, data: str(d.data) ?? '' }
    return mediaType.startsWith('image/') ? { type: 'image', source, mediaType } : { type: 'file', source, mediaType }
  }
  if (p.fileData !== undefined) {
    const d = rec(p.fileData)
    const mediaType = str(d.mimeType)
    const source = { kind: 'url' as const, url: str(d.fileUri) ?? '' }
    const part: UserPart = mediaType?.startsWith('image/') ? { type: 'image', source } : { type: 'file', source }
    if (mediaType) part.mediaType = mediaType
    return part
  }
  return undefined
}

function functionResponseContent(resp: unknown): { content: ToolResultPart['content']; isError: boolean } {
  const r = rec(resp)
  const keys = Object.keys(r)
  if (keys.length === 1 && typeof r.output === 'string') return { content: r.output ? [{ type: 'text', text: r.output }] : [], isError: false }
  if (keys.length === 1 && typeof r.error === 'string') return { content: [{ type: 'text', text: r.error }], isError: true }
  if (keys.length === 1 && typeof r.content === 'string') return { content: r.content ? [{ type: 'text', text: r.content }] : [], isError: false }
  return { content: [{ type: 'text', text: JSON.stringify(resp ?? {}) }], isError: r.error !== undefined && r.output === undefined }
}

export function decodeRequest(body: unknown, options: DecodeOptions = {}): Converted<IrRequest> {
  if (!options.checked) check(body)
  const b = body as Record<string, unknown>
  const warnings: string[] = []
  const ids = new CallIds()

  const system: TextPart[] = []
  for (const p of arr(rec(b.systemInstruction).parts)) {
    const t = str(rec(p).text)
    if (t) system.push({ type: 'text', text: t })
  }

  const messages: Message[] = []
  arr(b.contents).forEach((raw, ci) => {
    const c = rec(raw)
    const where = `contents[${ci}]`
    if (c.role === 'model') {
      const content: AssistantPart[] = []
      arr(c.parts).forEach((rp) => {
        const p = rec(rp)
        const po = signatureOptions(p)
        if (p.functionCall !== undefined) {
          const fc = rec(p.functionCall)
          const name = str(fc.name) ?? ''
          const part: AssistantPart = { type: 'tool-call', id: ids.call(name, str(fc.id)), name, arguments: JSON.stringify(fc.args ?? {}) }
          if (po) part.providerOptions = po
          content.push(part)
        } else if (typeof p.text === 'string') {
          if (p.thought === true) {
            const sig = str(p.thoughtSignature)
            const env = sig ? unwrapSignature(sig) : undefined
            const part: AssistantPart = { type: 'reasoning', text: p.text, origin: env?.origin ?? P }
            if (env) {
              if (env.signature) part.signature = env.signature
              if (env.encrypted) part.encrypted = env.encrypted
              if (env.id) part.id = env.id
            } else if (sig) part.signature = sig
            content.push(part)
          } else if (p.text !== '' || po) {
            const part: AssistantPart = { type: 'text', text: p.text }
            if (po) part.providerOptions = po
            content.push(part)
          }
        } else warnings.push(`${where}: model part ${Object.keys(p).join(',')} dropped`)
      })
      if (content.length) messages.push({ role: 'assistant', content })
      return
    }
    // user (or legacy "function") turn: split into tool results and user content, in order
    let user: UserPart[] = []
    let tool: ToolResultPart[] = []
    const flushUser = () => {
      if (user.length) messages.push({ role: 'user', content: user })
      user = []
    }
    const flushTool = () => {
      if (tool.length) messages.push({ role: 'tool', content: tool })
      tool = []
    }
    arr(c.parts).forEach((rp, pi) => {
      const p = rec(rp)
      if (p.functionResponse !== undefined) {
        flushUser()
        const fr = rec(p.functionResponse)
        const name = str(fr.name) ?? ''
        const { content, isError } = functionResponseContent(fr.response)
        const part: ToolResultPart = { type: 'tool-result', callId: ids.response(name, str(fr.id)), name, content }
        if (isError) part.isError = true
        tool.push(part)
        return
      }
      flushTool()
      if (typeof p.text === 'string') {
        if (p.text !== '') user.push({ type: 'text', text: p.text })
        return
      }
      const m = mediaPart(p)
      if (m) user.push(m)
      else warnings.push(`${where}.parts[${pi}]: part ${Object.keys(p).join(',')} dropped`)
    })
    flushTool()
    flushUser()
  })

  const tools: Tool[] = []
  for (const raw of arr(b.tools)) {
    const t = rec(raw)
    const decls = arr(t.functionDeclarations ?? t.function_declarations)
    for (const d of decls) {
      const f = rec(d)
      const parameters = f.parametersJsonSchema !== undefined ? rec(f.parametersJsonSchema) : rec(jsonSchemaFromGemini(f.parameters))
      const tool: Tool = { kind: 'function', name: str(f.name) ?? '', parameters }
      if (typeof f.description === 'string') tool.description = f.description
      tools.push(tool)
    }
    const rest = Object.keys(t).filter((k) => k !== 'functionDeclarations' && k !== 'function_declarations')
    for (const k of rest) tools.push({ kind: 'provider', protocol: P, type: k, name: k, raw: { [k]: t[k] } })
  }

  const providerOptions: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(b)) if (!CONSUMED.has(k)) providerOptions[k] = v
  const gc = rec(b.generationConfig)
  const genRest: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(gc)) if (!GEN_CONSUMED.has(k)) genRest[k] = v
  if (Object.keys(genRest).length) providerOptions.generationConfig = genRest

  const req: IrRequest = {
    model: str(b.model) ?? '',
    system,
    messages,
    tools,
    sampling: {},
    stream: false,
    providerOptions: { [P]: providerOptions },
  }
  req.sampling = decodeSampling(gc, {
    temperature: 'temperature', topP: 'topP', topK: 'topK', stop: 'stopSequences', seed: 'seed',
    presencePenalty: 'presencePenalty', frequencyPenalty: 'frequencyPenalty',
  })
  const max = num(gc.maxOutputTokens)
  if (max !== undefined) req.maxOutputTokens = max

  const schema = gc.responseJsonSchema ?? (gc.responseSchema === undefined ? undefined : jsonSchemaFromGemini(gc.responseSchema))
  if (schema !== undefined) req.responseFormat = { type: 'json_schema', name: 'output', schema: rec(schema) }
  else if (gc.responseMimeType === 'application/json') req.responseFormat = { type: 'json_object' }

  const tc = rec(gc.thinkingConfig)
  if (gc.thinkingConfig !== undefined) {
    req.reasoning = {}
    const budget = num(tc.thinkingBudget)
    if (budget === 0) req.reasoning.enabled = false
    else if (budget !== undefined && budget > 0) {
      req.reasoning.enabled = true
      req.reasoning.budgetTokens = budget
    } else if (budget === -1) req.reasoning.adaptive = true
    const level = str(tc.thinkingLevel)?.toLowerCase()
    if (level === 'minimal' || level === 'low' || level === 'medium' || level === 'high') req.reasoning.effort = level
    if (tc.includeThoughts === true) req.reasoning.summary = 'auto'
  }

  const fcc = rec(rec(b.toolConfig).functionCallingConfig)
  const mode = str(fcc.mode)
  const allowed = arr(fcc.allowedFunctionNames).filter((x): x is string => typeof x === 'string')
  if (mode === 'AUTO') req.toolChoice = { type: 'auto' }
  else if (mode === 'NONE') req.toolChoice = { type: 'none' }
  else if (mode === 'ANY' || mode === 'VALIDATED') req.toolChoice = allowed.length === 1 ? { type: 'tool', name: allowed[0]! } : { type: 'required' }
  if (b.toolConfig !== undefined) providerOptions.toolConfig = b.toolConfig
  return converted(req, warnings)
}
