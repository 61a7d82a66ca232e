/** Settings › Billing: the output cap a request without one is sent with, and input by reference. */
export const outputCaps = {
  'settings.option.ModelMaxOutputTokens': 'Maximum output per model (JSON)',
  'settings.hint.ModelMaxOutputTokens':
    'Model → output tokens, e.g. {"qwen3-235b-a22b-thinking": 32768}. A priced request that sets no maximum is sent with this cap, lowered to what the balance buys. Known families (GPT-5, o-series, Claude, Gemini, DeepSeek) have defaults.',
  'settings.option.MinOutputTokens': 'Fewest output tokens to serve',
  'settings.hint.MinOutputTokens': 'A request without a maximum whose balance buys fewer output tokens than this is refused.',
  'settings.option.ModelContextTokens': 'Context window per model (JSON)',
  'settings.hint.ModelContextTokens':
    'Model → tokens. A request whose input is partly elsewhere (previous_response_id, cachedContent, a file id, an image URL) is reserved at this, since its body does not say how much the vendor will count.',
  'settings.option.DefaultContextTokens': 'Default context window',
  'settings.hint.DefaultContextTokens': 'The context window of a model no table names.',
} as const
