import { converted, UnsupportedFeatureError, type Converted, type IrRequest, type Message } from '../../ir/index.ts'

/**
 * IR → Tencent Hunyuan's `ChatCompletions` (Tencent Cloud API 3.0, version 2023-09-01): PascalCase fields, the
 * conversation as `Messages` of `{Role, Content}` with the system prompt first, `Stream`, `TopP`, `Temperature`.
 * Text only, as new-api sends it: images and tool turns are refused by name.
 */
export function encodeRequest(req: IrRequest): Converted<Record<string, unknown>> {
  if (req.tools.length > 0) throw new UnsupportedFeatureError('tools: Tollgate sends Hunyuan text conversations only', 'tools')
  const warnings: string[] = []
  const messages: { Role: string; Content: string }[] = []
  const system = req.system.map((p) => p.text).filter(Boolean).join('\n\n')
  if (system) messages.push({ Role: 'system', Content: system })
  req.messages.forEach((message, i) => {
    const turn = turnOf(message, i, warnings)
    if (turn) messages.push(turn)
  })
  const body: Record<string, unknown> = { Model: req.model, Messages: messages, Stream: req.stream }
  if (req.sampling.temperature !== undefined) body.Temperature = req.sampling.temperature
  if (req.sampling.topP !== undefined) body.TopP = req.sampling.topP
  return converted(body, warnings)
}

function turnOf(message: Message, i: number, warnings: string[]): { Role: string; Content: string } | undefined {
  if (message.role === 'opaque') {
    warnings.push(`messages[${i}]: a ${message.type} item is not sent to Hunyuan`)
    return undefined
  }
  if (message.role === 'tool') throw new UnsupportedFeatureError(`messages[${i}]: tool results cannot be sent to Hunyuan here`, 'messages')
  const texts: string[] = []
  for (const part of message.content) {
    if (part.type === 'text') texts.push(part.text)
    else if (part.type === 'tool-call') throw new UnsupportedFeatureError(`messages[${i}]: tool calls cannot be sent to Hunyuan here`, 'messages')
    else if (part.type === 'image' || part.type === 'file') throw new UnsupportedFeatureError(`messages[${i}]: Hunyuan takes text only here; ${part.type}s are not sent`, 'messages')
    else warnings.push(`messages[${i}]: a ${part.type} part is not sent to Hunyuan`)
  }
  return { Role: message.role, Content: texts.join('') }
}
