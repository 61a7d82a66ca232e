import { hostedToolKind, made, outputCount } from '../price-choices.ts'
import type { PriceChoices } from '../types.ts'

/** Gemini tools billed by their tokens alone (snake_case: the camelCase spelling is read the same). */
const TOKEN_BILLED = new Set(['function_declarations', 'code_execution', 'url_context', 'computer_use'])
const snake = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)

/**
 * `generationConfig.candidateCount`, grounding tools (`googleSearch`, `googleMaps` …), a cached content's input (by
 * reference) and the output cap in either spelling.
 */
export function priceChoices(member: (key: string) => unknown): PriceChoices {
  // Google's API takes the snake_case spelling too, and a passthrough upstream reads the body as sent
  const config = member('generationConfig') ?? member('generation_config')
  const fields = typeof config === 'object' && config !== null ? (config as Record<string, unknown>) : {}
  const candidates = fields.candidateCount ?? fields.candidate_count
  const max = fields.maxOutputTokens ?? fields.max_output_tokens
  const maxOutput = typeof max === 'number' && Number.isFinite(max) && max >= 0 ? max : undefined
  const cached = member('cachedContent') ?? member('cached_content')
  const hostedTools: { kind: string; field: string }[] = []
  const tools = member('tools')
  if (Array.isArray(tools)) {
    tools.forEach((tool, i) => {
      if (typeof tool !== 'object' || tool === null) return
      for (const key of Object.keys(tool)) {
        const type = snake(key)
        const kind = TOKEN_BILLED.has(type) ? undefined : hostedToolKind(type)
        if (kind) hostedTools.push({ kind, field: `tools[${i}].${key}` })
      }
    })
  }
  return made({ choices: outputCount(candidates, 'generationConfig.candidateCount'), hostedTools, maxOutput, byReference: cached === undefined || cached === null ? [] : ['cachedContent'] })
}
