import { converted, newId, stringifyArguments, type AssistantPart, type Converted, type IrResponse } from '../../ir/index.ts'
import { arr, rec, str } from '../shared.ts'
import { finishFromConverse, P, usageFromConverse } from './maps.ts'

/** One Converse content block of the answer → an IR part (undefined: nothing to keep). */
function partFromBlock(block: unknown, i: number, warnings: string[]): AssistantPart | undefined {
  const b = rec(block)
  if (typeof b.text === 'string') return b.text === '' ? undefined : { type: 'text', text: b.text }
  if (b.toolUse) {
    const t = rec(b.toolUse)
    return { type: 'tool-call', id: str(t.toolUseId) ?? '', name: str(t.name) ?? '', arguments: stringifyArguments(t.input) }
  }
  if (b.reasoningContent) {
    const r = rec(b.reasoningContent)
    if (typeof r.redactedContent === 'string') return { type: 'reasoning', text: '', redacted: true, encrypted: r.redactedContent, origin: P }
    const t = rec(r.reasoningText)
    const part: AssistantPart = { type: 'reasoning', text: str(t.text) ?? '', origin: P }
    if (str(t.signature)) part.signature = str(t.signature)
    return part
  }
  warnings.push(`output.message.content[${i}]: block ${Object.keys(b)[0] ?? '(empty)'} dropped`)
  return undefined
}

/** Converse response → IR. Bedrock names neither an id nor the model in the body: the id is made up here. */
export function decodeResponse(body: unknown): Converted<IrResponse> {
  const b = rec(body)
  const warnings: string[] = []
  const parts: AssistantPart[] = []
  arr(rec(rec(b.output).message).content).forEach((block, i) => {
    const p = partFromBlock(block, i, warnings)
    if (p) parts.push(p)
  })
  const extra = rec(b.additionalModelResponseFields)
  return converted(
    {
      id: newId('msg_bdrk_'),
      model: '',
      parts,
      finish: finishFromConverse(str(b.stopReason), str(extra.stop_sequence)),
      usage: usageFromConverse(b.usage),
    },
    warnings,
  )
}
