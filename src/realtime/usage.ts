import { emptyUsage, tokenCount, type Usage } from '../ir'

/**
 * The usage of one realtime `response.done` (`response.usage`: input tokens include the cached ones, each side split
 * into text and audio), as the neutral Usage with its audio part: uncached audio input and audio output.
 */
export function responseUsage(event: { response?: { usage?: unknown } }): Usage | undefined {
  const u = event.response?.usage as RealtimeUsage | undefined
  if (!u || typeof u !== 'object') return undefined
  const input = tokenCount(u.input_tokens)
  const cached = Math.min(input, tokenCount(u.input_token_details?.cached_tokens))
  const cachedAudio = tokenCount(u.input_token_details?.cached_tokens_details?.audio_tokens)
  const audioIn = Math.min(input - cached, Math.max(0, tokenCount(u.input_token_details?.audio_tokens) - cachedAudio))
  const output = tokenCount(u.output_tokens)
  const audioOut = Math.min(output, tokenCount(u.output_token_details?.audio_tokens))
  return { input: { noCache: input - cached, cacheRead: cached, cacheWrite: 0 }, output: { text: output, reasoning: 0 }, audio: { input: audioIn, output: audioOut } }
}

/** A session's running total. */
export function addUsage(total: Usage, more: Usage): Usage {
  const sum = emptyUsage()
  sum.input.noCache = total.input.noCache + more.input.noCache
  sum.input.cacheRead = total.input.cacheRead + more.input.cacheRead
  sum.output.text = total.output.text + more.output.text
  sum.output.reasoning = total.output.reasoning + more.output.reasoning
  sum.audio = { input: (total.audio?.input ?? 0) + (more.audio?.input ?? 0), output: (total.audio?.output ?? 0) + (more.audio?.output ?? 0) }
  return sum
}

interface RealtimeUsage {
  input_tokens?: number
  output_tokens?: number
  input_token_details?: { cached_tokens?: number; text_tokens?: number; audio_tokens?: number; cached_tokens_details?: { text_tokens?: number; audio_tokens?: number } }
  output_token_details?: { text_tokens?: number; audio_tokens?: number }
}
