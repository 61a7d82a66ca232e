/**
 * fetch_models for AWS Bedrock: the control-plane host (`bedrock.{region}.amazonaws.com`, SigV4 service `bedrock`, or
 * the API key as Bearer) lists the foundation models that answer text on demand (ListFoundationModels) and the
 * cross-region inference profiles (`us.anthropic.…`, ListInferenceProfiles), which newer models are called through.
 */
import { getJson } from './model-list-call'
import { parseBedrockKey, signBedrockRequest } from './signing/sigv4'
import type { ModelListCall } from './types'
import { joinUrl } from './url'

const rec = (v: unknown): Record<string, unknown> => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {})
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : [])
const has = (v: unknown, item: string) => list(v).includes(item)

/** ListFoundationModels `{modelSummaries}` (text out, on demand) and ListInferenceProfiles `{inferenceProfileSummaries}` (active) → model ids. */
export function parseBedrockModels(body: unknown): string[] {
  const b = rec(body)
  const models = list(b.modelSummaries)
    .map(rec)
    .filter((m) => has(m.outputModalities, 'TEXT') && has(m.inferenceTypesSupported, 'ON_DEMAND'))
    .map((m) => m.modelId)
  const profiles = list(b.inferenceProfileSummaries)
    .map(rec)
    .filter((p) => p.status === undefined || p.status === 'ACTIVE')
    .map((p) => p.inferenceProfileId)
  return [...models, ...profiles].filter((id): id is string => typeof id === 'string' && id !== '')
}

/** The control-plane root for a channel: its base URL with `bedrock-runtime` made `bedrock` (a VPC endpoint, a proxy), else the region's host. */
function bedrockControlUrl(baseUrl: string, region: string): string {
  if (baseUrl) return baseUrl.replace(/\/+$/, '').replace(/\bbedrock-runtime\./, 'bedrock.')
  return `https://bedrock.${region}.amazonaws.com${region.startsWith('cn-') ? '.cn' : ''}`
}

const PAGES = 20

export async function listBedrockModels(call: ModelListCall): Promise<string[]> {
  const key = parseBedrockKey(call.key)
  const root = bedrockControlUrl(call.baseUrl, key.region)
  const get = async (path: string) => {
    const url = joinUrl(root, path)
    return getJson(call, url, await signBedrockRequest({ method: 'GET', url, headers: { accept: 'application/json' } }, key))
  }
  const ids = parseBedrockModels(await get('/foundation-models?byOutputModality=TEXT'))
  let next: unknown
  for (let page = 0; page < PAGES; page++) {
    const query = `/inference-profiles?maxResults=1000&typeEquals=SYSTEM_DEFINED${typeof next === 'string' ? `&nextToken=${encodeURIComponent(next)}` : ''}`
    const body = await get(query)
    ids.push(...parseBedrockModels(body))
    next = rec(body).nextToken
    if (typeof next !== 'string' || next === '') break
  }
  return ids
}
