/**
 * The fake Vertex's Model Garden lists: GET /v1beta1/publishers/{publisher}/models, `{publisherModels, nextPageToken}`
 * in Google's shape, at most `pageLimit` models a page whatever `pageSize` asks (Google may return fewer too).
 */
import { json } from './shared'

export interface PublisherModel {
  name: string
  versionId: string
  launchStage?: 'GA' | 'PUBLIC_PREVIEW' | 'DEPRECATED'
}

export const DEFAULT_PUBLISHER_MODELS: Record<string, PublisherModel[]> = {
  google: [
    { name: 'gemini-2.5-pro', versionId: '001' },
    { name: 'gemini-2.5-flash', versionId: '001' },
    { name: 'imagen-4.0-generate-001', versionId: 'default' },
    { name: 'text-embedding-005', versionId: '005' },
    { name: 'gemini-1.0-pro', versionId: '002', launchStage: 'DEPRECATED' },
  ],
  anthropic: [
    { name: 'claude-sonnet-4-5', versionId: '20250929' },
    { name: 'claude-opus-4-1', versionId: '20250805' },
  ],
}

export const LIST_PATH = /^\/v1beta1\/publishers\/([^/]+)\/models$/

export function publisherModels(publisher: string, query: URLSearchParams, catalog: Record<string, PublisherModel[]>, pageLimit = 2): Response {
  const all = catalog[publisher] ?? []
  const size = Math.min(Number(query.get('pageSize') ?? 100) || 100, pageLimit)
  const from = Number(query.get('pageToken') ?? 0) || 0
  const page = all.slice(from, from + size).map((m) => ({ name: `publishers/${publisher}/models/${m.name}`, versionId: m.versionId, launchStage: m.launchStage ?? 'GA', openSourceCategory: 'PROPRIETARY' }))
  return json({ publisherModels: page, ...(from + size < all.length ? { nextPageToken: String(from + size) } : {}) })
}
