import { made, optionalText, typedHostedTools } from '../price-choices.ts'
import type { PriceChoices } from '../types.ts'

/** Top-level fields that bring input the body does not hold: a stored response's conversation, a conversation, a stored prompt. */
const BY_REFERENCE = ['previous_response_id', 'conversation', 'prompt']

/**
 * `service_tier`, hosted tools (web search, file search, code interpreter, image generation …) and input by reference;
 * Responses has no `n`.
 */
export function priceChoices(member: (key: string) => unknown): PriceChoices {
  const byReference = BY_REFERENCE.filter((key) => member(key) !== undefined && member(key) !== null)
  return made({ serviceTier: optionalText(member('service_tier'), 'service_tier'), hostedTools: typedHostedTools(member('tools'), 'function'), byReference })
}
