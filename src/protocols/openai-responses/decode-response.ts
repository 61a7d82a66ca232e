import { converted, type AssistantPart, type Converted, type IrResponse } from '../../ir/index.ts'
import { unwrapSignature } from '../envelope.ts'
import { arr, num, rec, str } from '../shared.ts'
import { finishFromResponses, usageFromResponses } from './maps.ts'

const P = 'openai-responses'

/** One output item → IR parts (shared with the stream decoder's fallbacks). */
function partsFromOutputItem(item: Record<string, unknown>, warnings: string[], where: string): AssistantPart[] {
  switch (item.type) {
    case 'message': {
      const out: AssistantPart[] = []
      for (const raw of arr(item.content)) {
        const c = rec(raw)
        const t = c.type === 'refusal' ? str(c.refusal) : str(c.text)
        if (t) out.push({ type: 'text', text: t })
      }
      return out
    }
    case 'reasoning': {
      const summary = arr(item.summary).map((s) => str(rec(s).text) ?? '').filter(Boolean)
      const full = arr(item.content).map((s) => str(rec(s).text) ?? '').filter(Boolean)
      const part: AssistantPart = { type: 'reasoning', text: (summary.length ? summary : full).join('\n\n'), origin: P }
      const enc = str(item.encrypted_content)
      const env = enc ? unwrapSignature(enc) : undefined
      if (env) {
        part.origin = env.origin
        if (env.signature) part.signature = env.signature
        if (env.encrypted) part.encrypted = env.encrypted
      } else if (enc) part.encrypted = enc
      if (typeof item.id === 'string') part.id = item.id
      return [part]
    }
    case 'function_call':
    case 'custom_tool_call': {
      const part: AssistantPart = {
        type: 'tool-call',
        id: str(item.call_id) ?? str(item.id) ?? '',
        name: str(item.name) ?? '',
        arguments: (item.type === 'custom_tool_call' ? str(item.input) : str(item.arguments)) || '{}',
      }
      const extra: Record<string, unknown> = {}
      if (typeof item.id === 'string') extra.id = item.id
      if (item.type === 'custom_tool_call') extra.type = 'custom_tool_call'
      if (typeof item.namespace === 'string') extra.namespace = item.namespace
      if (Object.keys(extra).length) part.providerOptions = { [P]: extra }
      return [part]
    }
    default:
      warnings.push(`${where}: output item type ${String(item.type)} dropped`)
      return []
  }
}

/** Upstream response object → IR. */
export function decodeResponse(body: unknown): Converted<IrResponse> {
  const b = rec(rec(body).response ?? body)
  const warnings: string[] = []
  const parts: AssistantPart[] = []
  arr(b.output).forEach((raw, i) => parts.push(...partsFromOutputItem(rec(raw), warnings, `output[${i}]`)))
  const res: IrResponse = {
    id: str(b.id) ?? '',
    model: str(b.model) ?? '',
    parts,
    finish: finishFromResponses(b, parts.some((p) => p.type === 'tool-call')),
    usage: usageFromResponses(b.usage),
  }
  const created = num(b.created_at)
  if (created !== undefined) res.created = created
  return converted(res, warnings)
}
