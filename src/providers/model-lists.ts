/** Parsers for the model-list bodies vendors return. Tolerant: odd entries are skipped, never thrown on. */

/** OpenAI style `{data: [{id}]}` (OpenAI, Anthropic, Azure, most compatibles). */
export function parseDataIds(body: unknown): string[] {
  const data = (body as { data?: unknown })?.data
  if (!Array.isArray(data)) return []
  return data.map((m) => (m as { id?: unknown })?.id).filter((id): id is string => typeof id === 'string' && id !== '')
}

/** Gemini `{models: [{name: "models/gemini-…"}]}`. */
export function parseGeminiModels(body: unknown): string[] {
  const models = (body as { models?: unknown })?.models
  if (!Array.isArray(models)) return []
  return models
    .map((m) => (m as { name?: unknown })?.name)
    .filter((name): name is string => typeof name === 'string' && name !== '')
    .map((name) => name.replace(/^models\//, ''))
}
