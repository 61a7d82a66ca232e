import { converted, type AssistantPart, type Converted, type IrResponse } from '../../ir/index.ts'
import { arr, num, rec, str } from '../shared.ts'
import { finishFromChat, usageFromOpenAI } from './maps.ts'

/** Upstream chat.completion → IR (first choice). */
export function decodeResponse(body: unknown): Converted<IrResponse> {
  const b = rec(body)
  const warnings: string[] = []
  const choices = arr(b.choices)
  if (choices.length > 1) warnings.push(`choices: only the first of ${choices.length} choices is used`)
  const choice = rec(choices[0])
  const msg = rec(choice.message)
  const parts: AssistantPart[] = []
  const reasoning = str(msg.reasoning_content) ?? str(msg.reasoning)
  if (reasoning) parts.push({ type: 'reasoning', text: reasoning, origin: 'openai-chat' })
  if (typeof msg.content === 'string' && msg.content !== '') parts.push({ type: 'text', text: msg.content })
  else if (Array.isArray(msg.content))
    for (const c of msg.content) {
      const t = str(rec(c).text)
      if (t) parts.push({ type: 'text', text: t })
    }
  if (typeof msg.refusal === 'string' && msg.refusal) parts.push({ type: 'text', text: msg.refusal })
  for (const raw of arr(msg.tool_calls)) {
    const c = rec(raw)
    const f = rec(c.function)
    parts.push({ type: 'tool-call', id: str(c.id) ?? '', name: str(f.name) ?? '', arguments: str(f.arguments) || '{}' })
  }
  const res: IrResponse = {
    id: str(b.id) ?? '',
    model: str(b.model) ?? '',
    parts,
    finish: finishFromChat(str(choice.finish_reason)),
    usage: usageFromOpenAI(b.usage),
  }
  const created = num(b.created)
  if (created !== undefined) res.created = created
  return converted(res, warnings)
}
