import { made, optionalText, outputCount, typedHostedTools } from '../price-choices.ts'
import type { PriceChoices } from '../types.ts'

/** `n` completions, `service_tier`, `web_search_options` and hosted tools in `tools`. */
export function priceChoices(member: (key: string) => unknown): PriceChoices {
  const hostedTools = typedHostedTools(member('tools'), 'function')
  const search = member('web_search_options')
  if (search !== undefined && search !== null) hostedTools.unshift({ kind: 'web_search', field: 'web_search_options' })
  return made({ choices: outputCount(member('n'), 'n'), serviceTier: optionalText(member('service_tier'), 'service_tier'), hostedTools })
}
