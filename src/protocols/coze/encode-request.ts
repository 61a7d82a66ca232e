import { converted, UnsupportedFeatureError, type Converted, type IrRequest, type Message } from '../../ir/index.ts'

/** One of Coze's `additional_messages`: text, or a user's text and images as an `object_string`. */
interface CozeMessage {
  role: 'user' | 'assistant'
  type?: 'question' | 'answer'
  content: string
  content_type: 'text' | 'object_string'
}

/**
 * IR → Coze's `POST /v3/chat` (a bot's chat; the bot id comes from the channel's `other`, set as `bot_id` by the
 * channel): the conversation as `additional_messages` (users' and the bot's turns; images by URL in an
 * `object_string`), always streamed (Coze answers a non-stream chat only through polling; the gateway collects the
 * stream instead). The bot has its own persona, model and plugins: system prompts are dropped with a warning,
 * function tools and tool turns are refused by name.
 */
export function encodeRequest(req: IrRequest): Converted<Record<string, unknown>> {
  if (req.tools.length > 0) throw new UnsupportedFeatureError('tools: a Coze bot runs its own plugins; function tools cannot be sent to it', 'tools')
  const warnings: string[] = []
  if (req.system.length > 0) warnings.push('system: a Coze bot has its own persona; the system prompt was not sent')
  const messages = req.messages.flatMap((message, i) => messageOf(message, i, warnings))
  return converted({ bot_id: '', user_id: req.user || 'tollgate', additional_messages: messages, stream: true, auto_save_history: true }, warnings)
}

function messageOf(message: Message, i: number, warnings: string[]): CozeMessage[] {
  if (message.role === 'system' || message.role === 'opaque') {
    warnings.push(`messages[${i}]: a ${message.role === 'system' ? 'system' : message.type} message is not sent to Coze`)
    return []
  }
  if (message.role === 'tool') throw new UnsupportedFeatureError(`messages[${i}]: tool results cannot be sent to a Coze bot`, 'messages')
  if (message.role === 'assistant') {
    if (message.content.some((p) => p.type === 'tool-call')) throw new UnsupportedFeatureError(`messages[${i}]: tool calls cannot be sent to a Coze bot`, 'messages')
    const text = message.content.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('')
    return text ? [{ role: 'assistant', type: 'answer', content: text, content_type: 'text' }] : []
  }
  const items: Record<string, string>[] = []
  for (const part of message.content) {
    if (part.type === 'text') items.push({ type: 'text', text: part.text })
    else if (part.type === 'image') {
      if (part.source.kind !== 'url') throw new UnsupportedFeatureError(`messages[${i}]: Coze takes images by URL only; inline (base64) images are not sent`, 'messages')
      items.push({ type: 'image', file_url: part.source.url })
    } else warnings.push(`messages[${i}]: a ${part.type} part is not sent to Coze`)
  }
  if (items.every((item) => item.type === 'text')) return [{ role: 'user', type: 'question', content: items.map((item) => item.text).join(''), content_type: 'text' }]
  return [{ role: 'user', type: 'question', content: JSON.stringify(items), content_type: 'object_string' }]
}
