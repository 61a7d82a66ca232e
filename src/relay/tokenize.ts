import { countTokens } from 'gpt-tokenizer/encoding/o200k_base'
import type { IrRequest, Part } from '../ir'

/** Tokens an image costs when its size is unknown (about a 1092×1092 image at Anthropic's area / 750). */
const IMAGE_TOKENS = 1600
/** Framing tokens per message (role, separators), as chat formats add them. */
const PER_MESSAGE = 3

/**
 * Input tokens of a request by a real BPE tokenizer (o200k_base). Vendors' own tokenizers differ a little;
 * this is the estimate for count_tokens and quota reservation, never the final bill.
 */
export function countRequestTokens(ir: IrRequest): number {
  let total = 0
  for (const part of ir.system) total += countTokens(part.text)
  for (const message of ir.messages) {
    total += PER_MESSAGE
    if (message.role === 'opaque') total += countTokens(JSON.stringify(message.raw))
    else for (const part of message.content) total += partTokens(part)
  }
  for (const tool of ir.tools) {
    total += tool.kind === 'function'
      ? countTokens(`${tool.name}\n${tool.description ?? ''}\n${JSON.stringify(tool.parameters)}`)
      : countTokens(JSON.stringify(tool.raw))
  }
  return total
}

export function countTextTokens(text: string): number {
  return text ? countTokens(text) : 0
}

function partTokens(part: Part): number {
  switch (part.type) {
    case 'text':
    case 'reasoning':
      return countTokens(part.text)
    case 'image':
    case 'file':
      return IMAGE_TOKENS
    case 'tool-call':
      return countTokens(part.name) + countTokens(part.arguments)
    case 'tool-result':
      return part.content.reduce((sum, inner) => sum + partTokens(inner), 0)
  }
}
