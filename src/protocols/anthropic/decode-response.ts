import { converted, stringifyArguments, type AssistantPart, type Converted, type IrResponse } from '../../ir/index.ts'
import { arr, rec, str } from '../shared.ts'
import { finishFromAnthropic, usageFromAnthropic } from './maps.ts'
import { unwrapSignature } from '../envelope.ts'

/** Upstream Messages response → IR. */
export function decodeResponse(body: unknown): Converted<IrResponse> {
  const b = rec(body)
  const warnings: string[] = []
  const parts: AssistantPart[] = []
  arr(b.content).forEach((raw, i) => {
    const c = rec(raw)
    switch (c.type) {
      case 'text':
        if (typeof c.text === 'string' && c.text !== '') parts.push({ type: 'text', text: c.text })
        break
      case 'thinking': {
        const sig = str(c.signature) ?? ''
        const env = sig ? unwrapSignature(sig) : undefined
        const part: AssistantPart = { type: 'reasoning', text: str(c.thinking) ?? '', origin: env?.origin ?? 'anthropic' }
        if (env) {
          if (env.signature) part.signature = env.signature
          if (env.encrypted) part.encrypted = env.encrypted
        } else if (sig) part.signature = sig
        parts.push(part)
        break
      }
      case 'redacted_thinking':
        parts.push({ type: 'reasoning', text: '', redacted: true, encrypted: str(c.data) ?? '', origin: 'anthropic' })
        break
      case 'tool_use':
        parts.push({ type: 'tool-call', id: str(c.id) ?? '', name: str(c.name) ?? '', arguments: stringifyArguments(c.input) })
        break
      default:
        warnings.push(`content[${i}]: block type ${String(c.type)} dropped`)
    }
  })
  return converted(
    {
      id: str(b.id) ?? '',
      model: str(b.model) ?? '',
      parts,
      finish: finishFromAnthropic(str(b.stop_reason), str(b.stop_sequence)),
      usage: usageFromAnthropic(b.usage),
    },
    warnings,
  )
}
