/**
 * fetch_models for Google Vertex AI: Model Garden's publisher model lists (`GET /v1beta1/publishers/{google|anthropic}/
 * models`, paged by `nextPageToken`) on the channel's region host, with the service account's access token; kept are
 * the models Tollgate relays on Vertex (Gemini, Claude, embeddings), named as calls take them.
 */
import { getJson, ModelListError } from '../model-list-call'
import type { ModelListCall } from '../types'
import { vertexRegion, vertexRoot } from './urls'

const rec = (v: unknown): Record<string, unknown> => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {})
const RELAYED = /^(gemini|claude|text-embedding|text-multilingual-embedding)/

/**
 * `{publisherModels: [{name: "publishers/google/models/gemini-2.5-pro", versionId}]}` → model ids. A Claude entry
 * whose version is a date is named with it (`claude-sonnet-4-5@20250929`), as Vertex's Claude calls name models.
 */
export function parseVertexModels(body: unknown): string[] {
  const models = rec(body).publisherModels
  if (!Array.isArray(models)) return []
  return models.flatMap((m) => {
    const name = rec(m).name
    const id = typeof name === 'string' ? name.slice(name.lastIndexOf('/') + 1) : ''
    if (!RELAYED.test(id) || rec(m).launchStage === 'DEPRECATED') return []
    const version = rec(m).versionId
    return [id.startsWith('claude') && typeof version === 'string' && /^\d{8}$/.test(version) && !id.includes('@') ? `${id}@${version}` : id]
  })
}

const PAGES = 20

/** The account's access token: `get` mints or reuses it, `drop` forgets one Vertex refused. */
export interface VertexTokens {
  get(): Promise<string>
  drop(): void
}

/** Every relayed publisher model of Google and Anthropic. A refused (stale) token is dropped and the call made once more. */
export async function listVertexModels(call: ModelListCall, tokens: VertexTokens): Promise<string[]> {
  const root = call.baseUrl ? call.baseUrl.replace(/\/+$/, '') : vertexRoot(vertexRegion(call.other))
  let renewed = false
  const get = async (url: string): Promise<unknown> => {
    try {
      return await getJson(call, url, { authorization: `Bearer ${await tokens.get()}`, accept: 'application/json' })
    } catch (error) {
      if (!(error instanceof ModelListError) || error.status !== 401 || renewed) throw error
      renewed = true
      tokens.drop()
      return get(url)
    }
  }
  const ids: string[] = []
  for (const publisher of ['google', 'anthropic']) {
    let next: unknown
    for (let page = 0; page < PAGES; page++) {
      const query = `pageSize=100&listAllVersions=true${typeof next === 'string' ? `&pageToken=${encodeURIComponent(next)}` : ''}`
      const body = await get(`${root}/v1beta1/publishers/${publisher}/models?${query}`)
      ids.push(...parseVertexModels(body))
      next = rec(body).nextPageToken
      if (typeof next !== 'string' || next === '') break
    }
  }
  return ids
}
