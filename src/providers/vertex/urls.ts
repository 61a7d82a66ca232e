/**
 * Where a Vertex AI call goes: `https://{region}-aiplatform.googleapis.com/v1/projects/{project}/locations/{region}/
 * publishers/{google|anthropic}/models/{model}:{action}`, Google's global endpoint for the `global` region and the
 * multi-region hosts for `us` and `eu` (as @google/genai and Anthropic's Vertex SDK build them). The project comes
 * from the service account, the region from the channel's `other` field as new-api stores it: a region name, or a
 * JSON object of model → region with a `default`.
 */
import { BadRequestError } from '../../errors'

export type VertexPublisher = 'google' | 'anthropic'
/** What the call does; the action on the URL follows from it and the model's publisher. */
export type VertexOperation = 'generate' | 'stream' | 'countTokens' | 'embed' | 'predict'

/** A channel's `other` (or a model's publisher) that cannot make a Vertex URL: 400 naming the field. */
export class VertexConfigError extends BadRequestError {}

/** new-api's answer when `other` is a JSON object naming neither the model nor a default. */
const DEFAULT_REGION = 'global'
const MULTI_REGIONS = new Set(['us', 'eu'])
const REGION = /^[a-z][a-z0-9-]*[a-z0-9]$/

/** Claude models are Anthropic's on Vertex; every other model name is Google's. */
export function vertexPublisher(model: string): VertexPublisher {
  return /^claude/i.test(model) ? 'anthropic' : 'google'
}

/** The one Claude whose Vertex name is not its Anthropic name with `@` before the date. */
const RENAMED: Record<string, string> = { 'claude-3-5-sonnet-20241022': 'claude-3-5-sonnet-v2@20241022' }

/**
 * A Claude model as Vertex names it: Anthropic's dated ids (`claude-sonnet-4-5-20250929`, what Claude Code sends)
 * become `claude-sonnet-4-5@20250929`; Vertex names and every other model pass unchanged.
 */
export function vertexModelId(model: string): string {
  if (vertexPublisher(model) !== 'anthropic' || model.includes('@')) return model
  return RENAMED[model] ?? model.replace(/-(\d{8})$/, '@$1')
}

/**
 * The region for a call from the channel's `other`: a plain region name, or a JSON object keyed by model (the first
 * of `models` found wins: new-api looks up the model the client asked for) with `default` as the fallback;
 * empty or naming neither: `global`.
 */
export function vertexRegion(other: string | null | undefined, ...models: (string | undefined)[]): string {
  const text = (other ?? '').trim()
  if (text === '') return DEFAULT_REGION
  if (!text.startsWith('{')) return checkRegion(text)
  let map: unknown
  try {
    map = JSON.parse(text)
  } catch {
    throw new VertexConfigError('other: not valid JSON; give a region (us-central1) or {"default": "us-central1", "<model>": "<region>"}', 'other')
  }
  if (typeof map !== 'object' || map === null || Array.isArray(map)) throw new VertexConfigError('other: a region map must be a JSON object', 'other')
  const regions = map as Record<string, unknown>
  for (const key of [...models, 'default']) {
    if (key === undefined || !Object.hasOwn(regions, key)) continue
    const region = regions[key]
    if (typeof region !== 'string' || region.trim() === '') throw new VertexConfigError(`other: the region for "${key}" must be a region name`, 'other')
    return checkRegion(region.trim())
  }
  return DEFAULT_REGION
}

function checkRegion(region: string): string {
  if (!REGION.test(region)) throw new VertexConfigError(`other: "${region.slice(0, 40)}" is not a Google Cloud region name (us-central1, europe-west4, global …)`, 'other')
  return region
}

/** The API host for a region, without a trailing slash. */
export function vertexRoot(region: string): string {
  if (region === 'global') return 'https://aiplatform.googleapis.com'
  if (MULTI_REGIONS.has(region)) return `https://aiplatform.${region}.rep.googleapis.com`
  return `https://${checkRegion(region)}-aiplatform.googleapis.com`
}

/**
 * Vertex embeds with Gemini-family models through `embedContent` (one content a call) and with the others, and
 * `gemini-embedding-001`, through `predict` (`instances`): the split @google/genai makes.
 */
export function vertexEmbeddingMethod(model: string): 'embedContent' | 'predict' {
  return (model.includes('gemini') && model !== 'gemini-embedding-001') || model.includes('maas') ? 'embedContent' : 'predict'
}

/** The model path segment and the action after the colon (with its query, for the SSE stream). */
export function vertexAction(operation: VertexOperation, model: string): { publisher: VertexPublisher; model: string; action: string } {
  const publisher = vertexPublisher(model)
  if (publisher === 'anthropic') {
    const id = vertexModelId(model)
    if (operation === 'generate') return { publisher, model: id, action: 'rawPredict' }
    if (operation === 'stream') return { publisher, model: id, action: 'streamRawPredict' }
    // the model goes in the body for counting (see vertexAnthropicCountTokensBody)
    if (operation === 'countTokens') return { publisher, model: 'count-tokens', action: 'rawPredict' }
    throw new VertexConfigError(`${model} is a Claude model: Vertex AI has no ${operation === 'predict' ? 'images' : 'embeddings'} for it`, 'model')
  }
  if (operation === 'generate') return { publisher, model, action: 'generateContent' }
  if (operation === 'stream') return { publisher, model, action: 'streamGenerateContent?alt=sse' }
  if (operation === 'countTokens') return { publisher, model, action: 'countTokens' }
  if (operation === 'predict') return { publisher, model, action: 'predict' }
  return { publisher, model, action: vertexEmbeddingMethod(model) }
}

export interface VertexTarget {
  /** the service account's project_id */
  project: string
  /** from vertexRegion() */
  region: string
  /** the upstream model (Vertex's name, or Anthropic's dated id: see vertexModelId) */
  model: string
  operation: VertexOperation
  /** replaces the Google host (a channel's base_url: a proxy, or a test's fake); `/v1/projects/…` follows it */
  baseUrl?: string
}

/** The full URL of one Vertex call. */
export function vertexUrl(target: VertexTarget): string {
  const { publisher, model, action } = vertexAction(target.operation, target.model)
  const root = target.baseUrl ? target.baseUrl.replace(/\/+$/, '') : vertexRoot(target.region)
  const location = checkRegion(target.region)
  const path = `/v1/projects/${segment(target.project)}/locations/${location}/publishers/${publisher}/models/${segment(model)}:${action}`
  return root + path
}

/** A path segment, encoded, with the `@` of Claude versions left as Google's docs write it. */
const segment = (value: string) => encodeURIComponent(value).replace(/%40/g, '@')
