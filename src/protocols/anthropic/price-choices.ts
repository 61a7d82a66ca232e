import { made, typedHostedTools } from '../price-choices.ts'
import type { PriceChoices } from '../types.ts'

/**
 * Server tools billed per use (web search, code execution) and the beta flags of the `anthropic-beta` header (or a
 * Bedrock-style `anthropic_beta` array). Messages has no `n`; its `service_tier` only narrows to standard capacity.
 */
export function priceChoices(member: (key: string) => unknown, headers: Headers): PriceChoices {
  const inBody = member('anthropic_beta')
  const fromBody = Array.isArray(inBody) ? inBody.filter((b): b is string => typeof b === 'string') : []
  const betas = [...(headers.get('anthropic-beta') ?? '').split(','), ...fromBody].map((b) => b.trim()).filter((b) => b !== '')
  return made({ hostedTools: typedHostedTools(member('tools'), 'custom'), betas })
}
