import { converted, newId, type Converted, type IrRequest, type IrResponse } from '../../ir/index.ts'
import { finishToChat, usageToChat } from './maps.ts'

export function chatId(id: string): string {
  return id.startsWith('chatcmpl-') ? id : newId('chatcmpl-')
}

/** IR → chat.completion body for a client. */
export function encodeResponse(res: IrResponse, request?: IrRequest): Converted<Record<string, unknown>> {
  const warnings: string[] = []
  let text = ''
  let reasoning = ''
  const calls: Record<string, unknown>[] = []
  for (const p of res.parts) {
    if (p.type === 'text') text += p.text
    else if (p.type === 'reasoning') reasoning += p.text
    else if (p.type === 'tool-call') calls.push({ id: p.id, type: 'function', function: { name: p.name, arguments: p.arguments } })
    else warnings.push('image output cannot be shown to a chat client, dropped')
  }
  const message: Record<string, unknown> = { role: 'assistant', content: text === '' && calls.length ? null : text }
  if (reasoning) message.reasoning_content = reasoning
  if (calls.length) message.tool_calls = calls
  return converted(
    {
      id: chatId(res.id),
      object: 'chat.completion',
      created: res.created ?? Math.floor(Date.now() / 1000),
      model: request?.model ?? res.model,
      choices: [{ index: 0, message, logprobs: null, finish_reason: finishToChat(res.finish) }],
      usage: usageToChat(res.usage),
    },
    warnings,
  )
}
