/**
 * Image APIs of other vendors on the operations fake: Google's Imagen (`/v1beta/models/{model}:predict`,
 * `x-goog-api-key`, `instances`/`parameters` in, `predictions[].bytesBase64Encoded` out, a filtered sample as
 * `raiFilteredReason` only, all filtered as `{}`) and Doubao Seedream on Ark (`/api/v3/images/generations`,
 * OpenAI's shape with `usage.generated_images`; a sequence makes up to `max_images`). Importing registers them.
 */
import { fakeImage } from './images'
import { addOperationRoute, type RecordedCall } from './operations'

const googleError = (status: number, message: string, state: string) => Response.json({ error: { code: status, message, status: state } }, { status })

function imagen(call: RecordedCall, key: string): Response {
  if (call.headers['x-goog-api-key'] !== key) return googleError(400, 'API key not valid. Please pass a valid API key.', 'INVALID_ARGUMENT')
  const prompt = call.json?.instances?.[0]?.prompt
  if (typeof prompt !== 'string' || !prompt) return googleError(400, 'Prompt is required.', 'INVALID_ARGUMENT')
  const count = call.json?.parameters?.sampleCount ?? 4
  if (prompt.includes('[none]')) return Response.json({})
  const predictions = Array.from({ length: count }, (_, i) =>
    prompt.includes('[filtered]') && i === 0 ? { raiFilteredReason: 'filtered for safety' } : { mimeType: 'image/png', bytesBase64Encoded: fakeImage(prompt, i) },
  )
  return Response.json({ predictions })
}
addOperationRoute('POST /v1beta/models/*:predict', imagen)

function seedream(call: RecordedCall, key: string): Response {
  if (call.headers.authorization !== `Bearer ${key}`) return Response.json({ error: { code: 'AuthenticationError', message: 'the API key is invalid', type: 'Unauthorized' } }, { status: 401 })
  const body = call.json ?? {}
  const made = body.sequential_image_generation === 'auto' ? Math.min(body.sequential_image_generation_options?.max_images ?? 15, 3) : 1
  const data = Array.from({ length: made }, (_, i) => (body.response_format === 'b64_json' ? { b64_json: fakeImage(body.prompt, i), size: '2048x2048' } : { url: `https://ark.example/${i}.jpeg`, size: '2048x2048' }))
  return Response.json({ model: body.model, created: 1_750_000_000, data, usage: { generated_images: made, output_tokens: 16384 * made, total_tokens: 16384 * made } })
}
addOperationRoute('POST /api/v3/images/generations', seedream)
