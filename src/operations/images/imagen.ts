import { UpstreamFailure } from '../../relay/failure'
import type { OperationAnswer, OperationDialect } from '../types'
import type { ImageGenerationRequest } from './generation-request'
import { imageUsage } from './usage'

/** The aspect ratios Imagen takes, as Google's Imagen API documents them. */
const RATIOS: readonly [string, number][] = [['1:1', 1], ['3:4', 3 / 4], ['4:3', 4 / 3], ['9:16', 9 / 16], ['16:9', 16 / 9]]

/** OpenAI's `WIDTHxHEIGHT` as the nearest ratio Imagen takes (by the ratios' logarithms); `auto` or none: Imagen's default. */
export function aspectRatioOf(size: unknown): string | undefined {
  const match = typeof size === 'string' ? /^(\d+)x(\d+)$/.exec(size) : null
  if (!match) return undefined
  const ratio = Math.log(Number(match[1]) / Number(match[2]))
  let best = RATIOS[0]!
  for (const candidate of RATIOS) if (Math.abs(Math.log(candidate[1]) - ratio) < Math.abs(Math.log(best[1]) - ratio)) best = candidate
  return best[0]
}

/**
 * OpenAI's `/v1/images/generations` to Imagen's `models/{model}:predict` (Gemini API; `instances[].prompt` and
 * `parameters.sampleCount`, `aspectRatio`), and its `predictions[].bytesBase64Encoded` back as OpenAI's `data`:
 * `b64_json`, or a `data:` URL when the client asked for `url` (Imagen hands out no links). Filtered samples come
 * back without bytes and are neither returned nor billed.
 */
export const imagenGeneration: OperationDialect<ImageGenerationRequest> = {
  streams: false,
  encode(request) {
    const parameters: Record<string, unknown> = { sampleCount: request.choice.n }
    const aspectRatio = aspectRatioOf(request.body.size)
    if (aspectRatio) parameters.aspectRatio = aspectRatio
    return { body: JSON.stringify({ instances: [{ prompt: request.body.prompt }], parameters }), contentType: 'application/json' }
  },
  async decode(response, request) {
    const images = predictionsOf(await response.text())
    const asUrl = request.body.response_format === 'url'
    const data = images.map(({ bytes, mimeType }) => (asUrl ? { url: `data:${mimeType};base64,${bytes}` } : { b64_json: bytes }))
    const answer: OperationAnswer = { body: JSON.stringify({ created: Math.floor(Date.now() / 1000), data }), contentType: 'application/json', usage: imageUsage(data.length) }
    return answer
  },
}

function predictionsOf(text: string): { bytes: string; mimeType: string }[] {
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    throw new UpstreamFailure(0, `upstream sent an Imagen answer that is not JSON: ${text.slice(0, 200)}`, true)
  }
  const predictions = (parsed as { predictions?: unknown })?.predictions
  const images = Array.isArray(predictions)
    ? predictions.flatMap((p: { bytesBase64Encoded?: unknown; mimeType?: unknown }) =>
        typeof p?.bytesBase64Encoded === 'string' && p.bytesBase64Encoded ? [{ bytes: p.bytesBase64Encoded, mimeType: typeof p.mimeType === 'string' ? p.mimeType : 'image/png' }] : [],
      )
    : []
  // every sample filtered (Imagen then answers `{}`): nothing delivered, nothing billed
  if (images.length === 0) throw new UpstreamFailure(0, 'upstream answered without images (every sample filtered, or `predictions` missing)', true)
  return images
}
