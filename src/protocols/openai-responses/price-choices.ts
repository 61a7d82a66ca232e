import { made, optionalText, typedHostedTools } from '../price-choices.ts'
import type { PriceChoices } from '../types.ts'

/** `service_tier` and hosted tools (web search, file search, code interpreter, image generation …); Responses has no `n`. */
export function priceChoices(member: (key: string) => unknown): PriceChoices {
  return made({ serviceTier: optionalText(member('service_tier'), 'service_tier'), hostedTools: typedHostedTools(member('tools'), 'function') })
}
