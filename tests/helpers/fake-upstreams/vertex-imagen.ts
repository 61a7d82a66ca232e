/**
 * Imagen on the fake Vertex endpoint (`publishers/google/models/imagen-…:predict`), as Vertex AI documents it:
 * `instances: [{prompt}]`, `parameters: {sampleCount (1–4), aspectRatio?}` → `predictions[]` of
 * `{bytesBase64Encoded, mimeType}`. A prompt with "[filtered]" loses its first sample (Vertex leaves a filtered image
 * out), "[none]" all of them (the answer is `{}`).
 */
import { fakeImage } from './images'
import { isObject, json } from './shared'
import type { RecordedRequest } from './types'

const RATIOS = new Set(['1:1', '3:4', '4:3', '9:16', '16:9'])
const invalid = (message: string) => json({ error: { code: 400, message, status: 'INVALID_ARGUMENT' } }, 400)

export function predictImages(rec: RecordedRequest): Response {
  const body = rec.json
  if (!isObject(body) || !Array.isArray(body.instances) || body.instances.length !== 1) return invalid('instances must hold exactly one instance.')
  const prompt = isObject(body.instances[0]) ? body.instances[0].prompt : undefined
  if (typeof prompt !== 'string' || !prompt) return invalid('Prompt is required.')
  const parameters = isObject(body.parameters) ? body.parameters : {}
  const count = parameters.sampleCount ?? 4
  if (!Number.isInteger(count) || count < 1 || count > 4) return invalid('sampleCount must be between 1 and 4.')
  if (parameters.aspectRatio !== undefined && !RATIOS.has(parameters.aspectRatio)) return invalid(`Unsupported aspect ratio: ${parameters.aspectRatio}.`)
  if (prompt.includes('[none]')) return json({})
  const predictions = Array.from({ length: count }, (_, i) => ({ mimeType: 'image/png', bytesBase64Encoded: fakeImage(prompt, i) })).filter((_, i) => !(prompt.includes('[filtered]') && i === 0))
  return json({ predictions })
}
