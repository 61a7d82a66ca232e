import { countTextTokens } from '../../relay/meter/tokenize'
import type { Usage } from '../../ir'
import { tokenCount } from '../../ir'
import { countedInput } from '../upstream-json'
import type { CompletionsRequest } from './request'

type Json = Record<string, any>

/**
 * An OpenAI-style `usage` (`prompt_tokens` including cached ones, as OpenAI's `prompt_tokens_details.cached_tokens`
 * or DeepSeek's `prompt_cache_hit_tokens`, and `completion_tokens`) as metering's usage; undefined when it says nothing.
 */
export function completionUsage(usage: Json | undefined | null): Usage | undefined {
  if (!usage || typeof usage !== 'object') return undefined
  const prompt = tokenCount(usage.prompt_tokens)
  const output = tokenCount(usage.completion_tokens)
  if (prompt + output === 0) return undefined
  const cached = Math.min(prompt, tokenCount(usage.prompt_tokens_details?.cached_tokens) || tokenCount(usage.prompt_cache_hit_tokens))
  return { input: { noCache: prompt - cached, cacheRead: cached, cacheWrite: 0 }, output: { text: output, reasoning: 0 } }
}

/**
 * What a stream has given the client so far, billed when the upstream sends no usage or the stream is cut: the
 * upstream's usage once it came, else the counted prompt plus the tokens of the text sent (pieces joined every
 * 1,024 so a long stream does not hold thousands of small strings).
 */
export class StreamTally {
  reported: Usage | undefined
  private joined: string[] = []
  private pieces: string[] = []

  constructor(private readonly request: CompletionsRequest) {}

  text(piece: string): void {
    if (!piece) return
    this.pieces.push(piece)
    if (this.pieces.length >= 1024) {
      this.joined.push(this.pieces.join(''))
      this.pieces = []
    }
  }

  usage(): Usage {
    if (this.reported) return this.reported
    const produced = countTextTokens(this.joined.join('') + this.pieces.join(''))
    return { input: { noCache: countedInput(this.request.meter), cacheRead: 0, cacheWrite: 0 }, output: { text: produced, reasoning: 0 } }
  }
}
