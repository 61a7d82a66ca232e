import { converted, newId, type AssistantPart, type Converted, type IrResponse } from '../../ir/index.ts'
import { unwrapSignature } from '../envelope.ts'
import { arr, rec, str } from '../shared.ts'
import { signatureOptions } from './decode-request.ts'
import { finishFromGemini, usageFromGemini } from './maps.ts'

const P = 'gemini'

/** One candidate part → IR part. Function calls without an id get one from `callId()`. */
export function partFromGemini(p: Record<string, unknown>, callId: () => string): AssistantPart | undefined {
  const po = signatureOptions(p)
  if (p.functionCall !== undefined) {
    const fc = rec(p.functionCall)
    const part: AssistantPart = { type: 'tool-call', id: str(fc.id) || callId(), name: str(fc.name) ?? '', arguments: JSON.stringify(fc.args ?? {}) }
    if (po) part.providerOptions = po
    return part
  }
  if (typeof p.text === 'string') {
    if (p.thought === true) {
      const sig = str(p.thoughtSignature)
      const env = sig ? unwrapSignature(sig) : undefined
      const part: AssistantPart = { type: 'reasoning', text: p.text, origin: env?.origin ?? P }
      if (env?.signature) part.signature = env.signature
      else if (sig && !env) part.signature = sig
      if (env?.encrypted) part.encrypted = env.encrypted
      return part
    }
    if (p.text === '' && !po) return undefined
    const part: AssistantPart = { type: 'text', text: p.text }
    if (po) part.providerOptions = po
    return part
  }
  if (p.inlineData !== undefined) {
    const d = rec(p.inlineData)
    return { type: 'image', source: { kind: 'base64', data: str(d.data) ?? '' }, mediaType: str(d.mimeType) ?? 'image/png' }
  }
  return undefined
}

/** Upstream GenerateContentResponse → IR (first candidate). */
export function decodeResponse(body: unknown): Converted<IrResponse> {
  const b = rec(body)
  const warnings: string[] = []
  const cand = rec(arr(b.candidates)[0])
  const parts: AssistantPart[] = []
  for (const raw of arr(rec(cand.content).parts)) {
    const p = partFromGemini(rec(raw), () => newId('call_'))
    if (p) parts.push(p)
  }
  const blocked = str(rec(b.promptFeedback).blockReason)
  const finish = blocked
    ? { unified: 'content_filter' as const, raw: blocked }
    : finishFromGemini(str(cand.finishReason), parts.some((p) => p.type === 'tool-call'))
  return converted(
    { id: str(b.responseId) ?? '', model: str(b.modelVersion) ?? '', parts, finish, usage: usageFromGemini(b.usageMetadata) },
    warnings,
  )
}
