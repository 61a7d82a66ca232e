import { converted, newId, type Converted, type IrRequest, type IrResponse } from '../../ir/index.ts'
import { withImage } from '../image-markdown.ts'
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
  let afterImage = false
  for (const p of res.parts) {
    if (p.type === 'text') text += (afterImage && p.text ? '\n\n' : '') + p.text
    else if (p.type === 'reasoning') reasoning += p.text
    else if (p.type === 'tool-call') calls.push({ id: p.id, type: 'function', function: { name: p.name, arguments: p.arguments } })
    // chat has no image output: an image the model made (Gemini's inlineData) is markdown in the content
    else if (p.type === 'image') text = withImage(text, p)
    afterImage = p.type === 'image' || (afterImage && p.type === 'text' && !p.text)
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
