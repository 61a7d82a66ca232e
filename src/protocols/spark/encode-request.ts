import { converted, UnsupportedFeatureError, type Converted, type IrRequest, type Message } from '../../ir/index.ts'

interface SparkMessage {
  role: 'system' | 'user' | 'assistant'
  content: string
}

/**
 * IR → one Spark request frame (iFlytek's WebSocket chat, `header` / `parameter.chat` / `payload.message.text`).
 * The app id and the domain are the channel's (its key and the model's API version): the connection fills them in
 * (providers/spark). Spark takes text turns only: function tools, tool turns and images are refused by name; the
 * system prompt goes as a `system` turn first; temperature, top_k and max_tokens go as Spark names them.
 */
export function encodeRequest(req: IrRequest): Converted<Record<string, unknown>> {
  if (req.tools.length > 0) throw new UnsupportedFeatureError('tools: Spark\'s WebSocket chat takes no function tools', 'tools')
  const warnings: string[] = []
  const text: SparkMessage[] = []
  if (req.system.length > 0) text.push({ role: 'system', content: req.system.map((p) => p.text).join('\n') })
  req.messages.forEach((message, i) => {
    const turn = turnOf(message, i, warnings)
    if (turn) text.push(turn)
  })
  const chat: Record<string, unknown> = { domain: '' }
  if (req.sampling.temperature !== undefined) chat.temperature = req.sampling.temperature
  if (req.sampling.topK !== undefined) chat.top_k = req.sampling.topK
  if (req.maxOutputTokens !== undefined) chat.max_tokens = req.maxOutputTokens
  const dropped = (['topP', 'stop', 'seed', 'frequencyPenalty', 'presencePenalty'] as const).filter((k) => req.sampling[k] !== undefined)
  if (dropped.length > 0) warnings.push(`${dropped.join(', ')}: Spark has no such setting; dropped`)
  return converted({ header: { app_id: '' }, parameter: { chat }, payload: { message: { text } } }, warnings)
}

function turnOf(message: Message, i: number, warnings: string[]): SparkMessage | undefined {
  if (message.role === 'opaque') return void warnings.push(`messages[${i}]: ${message.type} is not sent to Spark`)
  if (message.role === 'tool') throw new UnsupportedFeatureError(`messages[${i}]: tool results cannot be sent to Spark`, 'messages')
  const parts: string[] = []
  for (const part of message.content) {
    if (part.type === 'text') parts.push(part.text)
    else if (part.type === 'image') throw new UnsupportedFeatureError(`messages[${i}]: Spark's chat takes text only; images are not sent`, 'messages')
    else if (part.type === 'tool-call') throw new UnsupportedFeatureError(`messages[${i}]: tool calls cannot be sent to Spark`, 'messages')
    else warnings.push(`messages[${i}]: a ${part.type} part is not sent to Spark`)
  }
  return parts.length > 0 ? { role: message.role, content: parts.join('') } : undefined
}
