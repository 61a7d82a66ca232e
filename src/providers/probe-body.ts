import type { ProtocolId } from './types'

/**
 * The smallest real request of each protocol: one short user message, a few output tokens. Used by the
 * channel test and the health probe. `maxTokensField` follows the provider quirk for openai-chat.
 */
export function probeBody(
  protocol: ProtocolId,
  model: string,
  maxTokensField: 'max_tokens' | 'max_completion_tokens' = 'max_tokens',
): Record<string, unknown> {
  switch (protocol) {
    case 'openai-chat':
      return { model, messages: [{ role: 'user', content: 'hi' }], [maxTokensField]: 16, stream: false }
    case 'openai-responses':
      return { model, input: 'hi', max_output_tokens: 16, store: false }
    case 'anthropic':
      return { model, max_tokens: 1, messages: [{ role: 'user', content: 'hi' }] }
    case 'gemini':
      return { contents: [{ role: 'user', parts: [{ text: 'hi' }] }], generationConfig: { maxOutputTokens: 1 } }
  }
}

/** The message of an upstream error body in any of the four protocols (all use `error.message`), else the text. */
export function upstreamErrorMessage(status: number, text: string): string {
  try {
    const body = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown }
    if (typeof body.error === 'string' && body.error) return body.error
    if (body.error && typeof body.error === 'object' && typeof body.error.message === 'string') return body.error.message
    if (typeof body.message === 'string' && body.message) return body.message
  } catch {}
  const trimmed = text.trim().slice(0, 300)
  return trimmed ? `upstream status ${status}: ${trimmed}` : `upstream status ${status}`
}
