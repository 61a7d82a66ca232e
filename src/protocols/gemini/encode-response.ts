import { converted, parseArguments, type AssistantPart, type Converted, type IrRequest, type IrResponse } from '../../ir/index.ts'
import { wrapSignature } from '../envelope.ts'
import { rec } from '../shared.ts'
import { finishToGemini, usageToGemini } from './maps.ts'

const P = 'gemini'

/** Gemini wire part for an IR assistant part (foreign reasoning keeps its opaque data in an envelope). */
export function partToGemini(p: AssistantPart): Record<string, unknown> | undefined {
  const sig = rec(p.providerOptions?.[P]).thoughtSignature
  const sigPart = typeof sig === 'string' ? { thoughtSignature: sig } : {}
  switch (p.type) {
    case 'text':
      return p.text === '' && !sigPart.thoughtSignature ? undefined : { text: p.text, ...sigPart }
    case 'reasoning': {
      const part: Record<string, unknown> = { text: p.text, thought: true }
      if (p.origin === P && p.signature) part.thoughtSignature = p.signature
      else if (p.origin !== P && (p.signature || p.encrypted))
        part.thoughtSignature = wrapSignature({ origin: p.origin ?? 'unknown', signature: p.signature, encrypted: p.encrypted })
      return part
    }
    case 'tool-call':
      return { functionCall: { name: p.name, args: parseArguments(p.arguments) }, ...sigPart }
    case 'image':
      return p.source.kind === 'base64' ? { inlineData: { mimeType: p.mediaType ?? 'image/png', data: p.source.data } } : undefined
  }
}

/** IR → GenerateContentResponse for a client. */
export function encodeResponse(res: IrResponse, request?: IrRequest): Converted<Record<string, unknown>> {
  const parts = res.parts.map(partToGemini).filter((p): p is Record<string, unknown> => p !== undefined)
  const body: Record<string, unknown> = {
    candidates: [{ content: { role: 'model', parts }, finishReason: finishToGemini(res.finish), index: 0 }],
    usageMetadata: usageToGemini(res.usage),
    modelVersion: request?.model || res.model,
  }
  if (res.id) body.responseId = res.id
  return converted(body, [])
}
