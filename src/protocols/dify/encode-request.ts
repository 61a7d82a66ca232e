import { converted, UnsupportedFeatureError, type Converted, type IrRequest, type Message } from '../../ir/index.ts'

/** Dify's name for the speaker of each part of the conversation it gets as one `query` (as new-api writes it). */
const SPEAKER: Record<string, string> = { system: 'SYSTEM', user: 'USER', assistant: 'ASSISTANT' }

/** A remote image as Dify's `files` item (`transfer_mode: remote_url`). */
interface DifyFile {
  type: 'image'
  transfer_mode: 'remote_url'
  url: string
}

/**
 * IR → Dify's `POST /v1/chat-messages` (an app's chat: the app's key says which app; Dify keeps no model field):
 * the whole conversation as one `query`, each turn under its speaker's name (new-api's framing, so a Dify app
 * imported from new-api sees the same text), remote images as `files`, `user` from the client's or the gateway's
 * per-token id. Dify runs its own model and tools: function tools and inline (base64) images are refused by name;
 * sampling settings are the app's and are dropped with a warning.
 */
export function encodeRequest(req: IrRequest, user = 'tollgate'): Converted<Record<string, unknown>> {
  if (req.tools.length > 0) throw new UnsupportedFeatureError('tools: a Dify app runs its own tools; function tools cannot be sent to it', 'tools')
  const warnings: string[] = []
  const lines: string[] = []
  const files: DifyFile[] = []
  if (req.system.length > 0) lines.push(`SYSTEM: \n${req.system.map((p) => p.text).join('\n')}`)
  req.messages.forEach((message, i) => turnOf(message, i, lines, files, warnings))
  const dropped = Object.entries(req.sampling).filter(([, v]) => v !== undefined).map(([k]) => k)
  if (req.maxOutputTokens !== undefined) dropped.push('max output tokens')
  if (dropped.length > 0) warnings.push(`${dropped.join(', ')}: a Dify app sets its own model parameters; dropped`)
  const body: Record<string, unknown> = {
    inputs: {},
    query: lines.map((line) => `${line}\n`).join(''),
    response_mode: req.stream ? 'streaming' : 'blocking',
    user: req.user || user,
    auto_generate_name: false,
  }
  if (files.length > 0) body.files = files
  return converted(body, warnings)
}

function turnOf(message: Message, i: number, lines: string[], files: DifyFile[], warnings: string[]): void {
  if (message.role === 'opaque') return void warnings.push(`messages[${i}]: ${message.type} is not sent to Dify`)
  if (message.role === 'tool') throw new UnsupportedFeatureError(`messages[${i}]: tool results cannot be sent to a Dify app`, 'messages')
  const speaker = SPEAKER[message.role]!
  for (const part of message.content) {
    if (part.type === 'text') lines.push(`${speaker}: \n${part.text}`)
    else if (part.type === 'image') {
      if (part.source.kind !== 'url') throw new UnsupportedFeatureError(`messages[${i}]: Dify takes images by URL only; inline (base64) images are not sent`, 'messages')
      files.push({ type: 'image', transfer_mode: 'remote_url', url: part.source.url })
    } else if (part.type === 'tool-call') throw new UnsupportedFeatureError(`messages[${i}]: tool calls cannot be sent to a Dify app`, 'messages')
    else warnings.push(`messages[${i}]: a ${part.type} part is not sent to Dify`)
  }
}
