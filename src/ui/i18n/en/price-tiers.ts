/** Prices by prompt length: the price editor's tiers, the price lists' tier lines. */
export const priceTiers = {
  'tiers.mode': 'By prompt length (tiers)',
  'tiers.hint': 'A request is billed at the tier its prompt length falls in (cached tokens included), and reserved at the dearest tier it can reach. Each tier starts where the one before it ends; the last has no end.',
  'tiers.legend': 'Tier {n}',
  'tiers.from': 'From (prompt tokens)',
  'tiers.cacheHint': 'Optional. Empty: the model’s cache ratio of this tier’s input price.',
  'tiers.add': 'Add tier',
  'tiers.remove': 'Remove',
  'tiers.removeFor': 'Remove tier {n}',
  'tiers.error.from': 'Enter a whole number of tokens.',
  'tiers.error.first': 'The first tier starts at 0 tokens.',
  'tiers.error.order': 'Each tier must start above the one before it.',
  'tiers.error.freeInput': 'Output and cache cannot be priced when the input is free.',
  'tiers.range.between': '{min}–{max} tokens',
  'tiers.range.from': '{min} tokens and more',
  'tiers.line': 'in {input} · out {output}',
  'tiers.caption': 'Prices by prompt length',
}
