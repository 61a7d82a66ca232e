/** Parsers for the model-list bodies vendors return. Tolerant: odd entries are skipped, never thrown on. */

/** OpenAI style `{data: [{id}]}` (OpenAI, Anthropic, Azure, most compatibles), or a bare array of them (Together). */
export function parseDataIds(body: unknown): string[] {
  const data = Array.isArray(body) ? body : (body as { data?: unknown })?.data
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

/** Entries' `name` under `key`: Cohere `{models: [{name}]}`, Cloudflare Workers AI `{result: [{name: "@cf/…"}]}`. */
function namesUnder(key: string, body: unknown): string[] {
  const list = (body as Record<string, unknown> | null)?.[key]
  if (!Array.isArray(list)) return []
  return list.map((m) => (m as { name?: unknown })?.name).filter((name): name is string => typeof name === 'string' && name !== '')
}

/** Cohere `GET /v1/models`: `{models: [{name, endpoints}]}`, the models of the endpoints Tollgate relays (chat, embed, rerank). */
export function parseCohereModels(body: unknown): string[] {
  const models = (body as { models?: unknown })?.models
  if (!Array.isArray(models)) return []
  const relayed = models.filter((m) => {
    const endpoints = (m as { endpoints?: unknown })?.endpoints
    return !Array.isArray(endpoints) || endpoints.some((e) => e === 'chat' || e === 'embed' || e === 'rerank')
  })
  return namesUnder('models', { models: relayed })
}

/** Cloudflare `GET …/ai/models/search`: `{result: [{id: <uuid>, name: "@cf/meta/…"}]}`; the name is what chat takes. */
export const parseCloudflareModels = (body: unknown): string[] => namesUnder('result', body)
