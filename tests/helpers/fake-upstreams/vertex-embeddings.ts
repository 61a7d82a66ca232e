/**
 * Vertex AI embeddings for the fake Vertex endpoint: `:predict` (`instances: [{content, task_type?, title?}]`,
 * `parameters: {outputDimensionality?, autoTruncate?}` → `predictions[].embeddings {values, statistics}`) for
 * text-embedding-* and gemini-embedding-001, which takes one instance a call; `:embedContent` (`content.parts`,
 * `embedContentConfig`) → `{embedding: {values}, usageMetadata}` for newer Gemini embedding models.
 * Vectors are deterministic per text, unit length.
 */
import { isObject, json } from './shared'
import type { RecordedRequest } from './types'

const TASK_TYPES = new Set(['RETRIEVAL_QUERY', 'RETRIEVAL_DOCUMENT', 'SEMANTIC_SIMILARITY', 'CLASSIFICATION', 'CLUSTERING', 'QUESTION_ANSWERING', 'FACT_VERIFICATION', 'CODE_RETRIEVAL_QUERY'])

const invalid = (message: string) => json({ error: { code: 400, message, status: 'INVALID_ARGUMENT' } }, 400)

const defaultDimensions = (model: string) => (model.startsWith('gemini') ? 3072 : 768)

/** A unit vector from the text (FNV-1a seeded xorshift), so equal texts embed equally. */
function fakeVector(text: string, dimensions: number): number[] {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0
  const out: number[] = []
  for (let i = 0; i < dimensions; i++) {
    h ^= h << 13
    h ^= h >>> 17
    h ^= h << 5
    out.push(((h >>> 0) / 0xffffffff) * 2 - 1)
  }
  const norm = Math.hypot(...out) || 1
  return out.map((v) => v / norm)
}

const tokens = (text: string) => Math.max(1, Math.ceil(text.length / 4))

function dimensionsOf(value: unknown, model: string): number | Response {
  const max = defaultDimensions(model)
  if (value === undefined) return max
  if (!Number.isInteger(value) || (value as number) < 1 || (value as number) > max)
    return invalid(`outputDimensionality must be an integer between 1 and ${max} for ${model}.`)
  return value as number
}

export function predictEmbeddings(rec: RecordedRequest): Response {
  const model = rec.model ?? ''
  const body = rec.json
  if (!isObject(body) || !Array.isArray(body.instances) || body.instances.length === 0) return invalid('instances must not be empty.')
  if (model === 'gemini-embedding-001' && body.instances.length > 1)
    return invalid(`Unable to submit request because the model ${model} supports only 1 input text per request. Send each text in its own request.`)
  if (body.instances.length > 250) return invalid('The number of instances exceeds the limit of 250.')
  const dimensions = dimensionsOf(isObject(body.parameters) ? body.parameters.outputDimensionality : undefined, model)
  if (dimensions instanceof Response) return dimensions
  let characters = 0
  const predictions = []
  for (const [i, instance] of body.instances.entries()) {
    if (!isObject(instance) || typeof instance.content !== 'string') return invalid(`instances[${i}].content must be a string.`)
    if (instance.task_type !== undefined && !TASK_TYPES.has(instance.task_type)) return invalid(`instances[${i}].task_type: unknown task type ${instance.task_type}.`)
    characters += instance.content.length
    predictions.push({ embeddings: { statistics: { truncated: false, token_count: tokens(instance.content) }, values: fakeVector(instance.content, dimensions) } })
  }
  return json({ predictions, metadata: { billableCharacterCount: characters } })
}

export function embedContent(rec: RecordedRequest): Response {
  const model = rec.model ?? ''
  const body = rec.json
  const parts = isObject(body) && isObject(body.content) && Array.isArray(body.content.parts) ? body.content.parts : undefined
  if (!parts || parts.length === 0) return invalid('content.parts must not be empty.')
  const text = parts.map((p: unknown) => (isObject(p) && typeof p.text === 'string' ? p.text : '')).join('')
  const config = isObject(body!.embedContentConfig) ? body!.embedContentConfig : {}
  if (config.taskType !== undefined && !TASK_TYPES.has(config.taskType)) return invalid(`embedContentConfig.taskType: unknown task type ${config.taskType}.`)
  const dimensions = dimensionsOf(config.outputDimensionality, model)
  if (dimensions instanceof Response) return dimensions
  const count = tokens(text)
  return json({ embedding: { values: fakeVector(text, dimensions) }, usageMetadata: { promptTokenCount: count, totalTokenCount: count }, truncated: false })
}
