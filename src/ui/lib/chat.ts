/** The playground's pure parts: checking its settings, building the request, reading the streamed chunks. */

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant'
  content: string
  /** images sent with a question, as data: URLs (vision models) */
  images?: readonly string[]
}

type ContentPart = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } }
type WireMessage = { role: ChatMessage['role']; content: string | ContentPart[] }

/** A message as Chat Completions takes it: plain text, or text and images as content parts. */
function wireMessage({ role, content, images }: ChatMessage): WireMessage {
  if (!images?.length) return { role, content }
  const parts: ContentPart[] = content ? [{ type: 'text', text: content }] : []
  for (const url of images) parts.push({ type: 'image_url', image_url: { url } })
  return { role, content: parts }
}

export interface ChatSettings {
  model: string
  system: string
  /** as typed; empty = the model's default */
  temperature: string
  /** as typed; empty = the model's default */
  maxTokens: string
}

export type SettingsError = Partial<Record<'model' | 'temperature' | 'maxTokens', 'required' | 'temperature' | 'maxTokens'>>

const TEMPERATURE_MAX = 2

/** What is wrong with the settings (nothing: an empty object). */
export function checkSettings(settings: ChatSettings): SettingsError {
  const errors: SettingsError = {}
  if (!settings.model) errors.model = 'required'
  const temperature = settings.temperature.trim()
  if (temperature && !(/^\d+(\.\d+)?$|^\.\d+$/.test(temperature) && Number(temperature) <= TEMPERATURE_MAX)) errors.temperature = 'temperature'
  const maxTokens = settings.maxTokens.trim()
  if (maxTokens && !(/^\d+$/.test(maxTokens) && Number(maxTokens) >= 1 && Number.isSafeInteger(Number(maxTokens)))) errors.maxTokens = 'maxTokens'
  return errors
}

/** An OpenAI Chat Completions body, streamed with the usage in the last chunk. Settings must have been checked. */
export function chatBody(settings: ChatSettings, history: readonly ChatMessage[]): Record<string, unknown> {
  const messages: WireMessage[] = []
  if (settings.system.trim()) messages.push({ role: 'system', content: settings.system })
  for (const message of history) if (message.content || message.images?.length) messages.push(wireMessage(message))
  const body: Record<string, unknown> = { model: settings.model, messages, stream: true, stream_options: { include_usage: true } }
  if (settings.temperature.trim()) body.temperature = Number(settings.temperature)
  if (settings.maxTokens.trim()) body.max_tokens = Number(settings.maxTokens)
  return body
}

export interface Usage {
  prompt_tokens: number
  completion_tokens: number
}

export interface ChunkReading {
  /** answer text to append */
  content?: string
  /** reasoning ("thinking") text to append, when the model streams it */
  reasoning?: string
  usage?: Usage
  /** an error sent inside the stream */
  error?: string
  /** `[DONE]`: the stream is over */
  done?: boolean
}

const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined)
const count = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : 0)

/** One `data:` payload of an OpenAI chat stream, read leniently (unknown shapes give nothing). */
export function readChunk(data: string): ChunkReading {
  if (data.trim() === '[DONE]') return { done: true }
  let chunk: unknown
  try {
    chunk = JSON.parse(data)
  } catch {
    return {}
  }
  if (!chunk || typeof chunk !== 'object') return {}
  const record = chunk as Record<string, any>
  if (record.error) return { error: errorMessage(record) ?? 'error' }
  const reading: ChunkReading = {}
  const delta = Array.isArray(record.choices) ? record.choices[0]?.delta : undefined
  if (delta && typeof delta === 'object') {
    const content = text(delta.content)
    const reasoning = text(delta.reasoning_content) ?? text(delta.reasoning)
    if (content) reading.content = content
    if (reasoning) reading.reasoning = reasoning
  }
  if (record.usage && typeof record.usage === 'object') {
    reading.usage = { prompt_tokens: count(record.usage.prompt_tokens), completion_tokens: count(record.usage.completion_tokens) }
  }
  return reading
}

/** A body for reading: long strings (an image's data: URL) cut to their start and their size. */
export function bodyForView(body: unknown): string {
  return JSON.stringify(body, (_key, value) => (typeof value === 'string' && value.length > 200 ? `${value.slice(0, 60)}… (${value.length} characters)` : value), 2)
}

/** The message of an OpenAI-shaped error body (`{error: {message}}`), or of the console's envelope (`{message}`). */
export function errorMessage(body: unknown): string | undefined {
  if (!body || typeof body !== 'object') return undefined
  const record = body as Record<string, any>
  if (typeof record.error === 'string') return record.error
  if (record.error && typeof record.error.message === 'string') return record.error.message
  if (typeof record.message === 'string' && record.message) return record.message
  return undefined
}
