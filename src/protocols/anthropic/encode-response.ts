import { converted, newId, parseArguments, type Converted, type IrRequest, type IrResponse } from '../../ir/index.ts'
import { finishToAnthropic, usageToAnthropic } from './maps.ts'
import { wrapSignature } from '../envelope.ts'

/** Thinking signature shown to an Anthropic client for a reasoning part (envelope for foreign reasoning). */
export function clientSignature(p: { signature?: string; encrypted?: string; origin?: string; id?: string }): string {
  if (p.origin === 'anthropic' && p.signature) return p.signature
  return wrapSignature({ origin: p.origin ?? 'unknown', signature: p.signature, encrypted: p.encrypted, id: p.id })
}

export function anthropicMessageId(id: string): string {
  return id.startsWith('msg_') ? id : newId('msg_')
}

/** IR → Messages response body for a client. */
export function encodeResponse(res: IrResponse, request?: IrRequest): Converted<Record<string, unknown>> {
  const warnings: string[] = []
  const content: Record<string, unknown>[] = []
  for (const p of res.parts) {
    switch (p.type) {
      case 'text':
        if (p.text !== '') content.push({ type: 'text', text: p.text })
        break
      case 'reasoning':
        if (p.redacted && p.origin === 'anthropic') content.push({ type: 'redacted_thinking', data: p.encrypted ?? '' })
        else content.push({ type: 'thinking', thinking: p.text, signature: clientSignature(p) })
        break
      case 'tool-call':
        content.push({ type: 'tool_use', id: p.id, name: p.name, input: parseArguments(p.arguments) })
        break
      case 'image':
        warnings.push('image output cannot be shown to an Anthropic client, dropped')
        break
    }
  }
  return converted(
    {
      id: anthropicMessageId(res.id),
      type: 'message',
      role: 'assistant',
      model: request?.model ?? res.model,
      content,
      stop_reason: finishToAnthropic(res.finish),
      stop_sequence: res.finish.stopSequence ?? null,
      usage: usageToAnthropic(res.usage),
    },
    warnings,
  )
}
