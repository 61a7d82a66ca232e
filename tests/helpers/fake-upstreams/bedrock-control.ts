/**
 * The fake Bedrock's control plane (the `bedrock.{region}` host AWS serves beside `bedrock-runtime`): GET
 * /foundation-models (ListFoundationModels, filtered by `byOutputModality`) and GET /inference-profiles
 * (ListInferenceProfiles, paged by `maxResults` / `nextToken`, at most `pageLimit` a page), in AWS's shapes.
 */
import { json } from './shared'

export interface FoundationModel {
  modelId: string
  providerName: string
  outputModalities: string[]
  inferenceTypesSupported: string[]
}

/** A few of AWS's summaries: a Nova on demand, an embedding model, a Claude only through profiles. */
export const DEFAULT_FOUNDATION_MODELS: FoundationModel[] = [
  { modelId: 'amazon.nova-pro-v1:0', providerName: 'Amazon', outputModalities: ['TEXT'], inferenceTypesSupported: ['ON_DEMAND'] },
  { modelId: 'amazon.titan-embed-text-v2:0', providerName: 'Amazon', outputModalities: ['EMBEDDING'], inferenceTypesSupported: ['ON_DEMAND'] },
  { modelId: 'meta.llama3-1-8b-instruct-v1:0', providerName: 'Meta', outputModalities: ['TEXT'], inferenceTypesSupported: ['ON_DEMAND'] },
  { modelId: 'anthropic.claude-sonnet-4-5-20250929-v1:0', providerName: 'Anthropic', outputModalities: ['TEXT'], inferenceTypesSupported: ['INFERENCE_PROFILE'] },
]
export const DEFAULT_INFERENCE_PROFILES = ['us.anthropic.claude-sonnet-4-5-20250929-v1:0', 'us.amazon.nova-pro-v1:0', 'us.meta.llama3-1-8b-instruct-v1:0']

export const CONTROL_PATH = /^\/(foundation-models|inference-profiles)$/

export function controlPlane(operation: string, query: URLSearchParams, models: FoundationModel[], profiles: string[], region: string, pageLimit = 1000): Response {
  if (operation === 'foundation-models') {
    const modality = query.get('byOutputModality')
    const summaries = models
      .filter((m) => !modality || m.outputModalities.includes(modality))
      .map((m) => ({
        modelArn: `arn:aws:bedrock:${region}::foundation-model/${m.modelId}`, modelId: m.modelId, modelName: m.modelId, providerName: m.providerName,
        inputModalities: ['TEXT'], outputModalities: m.outputModalities, responseStreamingSupported: true, customizationsSupported: [],
        inferenceTypesSupported: m.inferenceTypesSupported, modelLifecycle: { status: 'ACTIVE' },
      }))
    return json({ modelSummaries: summaries })
  }
  const max = Math.min(Number(query.get('maxResults') ?? 1000) || 1000, pageLimit)
  const from = Number(query.get('nextToken') ?? 0) || 0
  const page = profiles.slice(from, from + max).map((id) => ({
    inferenceProfileId: id, inferenceProfileName: `US ${id}`, inferenceProfileArn: `arn:aws:bedrock:${region}:123456789012:inference-profile/${id}`,
    status: 'ACTIVE', type: 'SYSTEM_DEFINED', models: [],
  }))
  return json({ inferenceProfileSummaries: page, ...(from + max < profiles.length ? { nextToken: String(from + max) } : {}) })
}
