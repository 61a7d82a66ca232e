import { UpstreamFailure } from '../../relay/failure'
import { forwardForm } from '../form-fields'
import type { OperationAnswer, OperationDialect, OperationRequest } from '../types'
import type { ImageEditRequest } from './edit-request'
import type { ImageGenerationRequest } from './generation-request'
import type { ImageVariationRequest } from './variation-request'
import { streamImages } from './image-stream'
import { imageUsage } from './usage'

/**
 * OpenAI's `/v1/images/generations`, `/edits` and `/variations` (Azure and compatible servers answer the same shape):
 * the client's body goes on with only `model` replaced, the answer comes back as sent, and metering bills the
 * images it holds (`data.length`: fewer than `n` when the upstream made fewer). Generations and edits stream
 * (`stream: true`: GPT image models' partial images, Seedream's sequences) as the upstream's events (image-stream.ts).
 */
export const openAiImageGeneration: OperationDialect<ImageGenerationRequest> = {
  encode(request, upstreamModel) {
    const body: Record<string, unknown> = { ...request.body, model: upstreamModel }
    if (request.choice.dropResponseFormat) delete body.response_format
    return { body: JSON.stringify(body), contentType: 'application/json' }
  },
  decode: decodeStreamOrImages,
}

export const openAiImageEdit: OperationDialect<ImageEditRequest> = {
  encode(request, upstreamModel) {
    const replace: Record<string, string | undefined> = { model: upstreamModel }
    if (request.choice.dropResponseFormat) replace.response_format = undefined
    return { body: forwardForm(request.form, replace) }
  },
  decode: decodeStreamOrImages,
}

export const openAiImageVariation: OperationDialect<ImageVariationRequest> = {
  encode: (request, upstreamModel) => ({ body: forwardForm(request.form, { model: upstreamModel }) }),
  decode: decodeImages,
}

/** A stream asked for and sent is relayed as it comes; an upstream that answers a stream request whole is relayed whole. */
function decodeStreamOrImages(response: Response, request: OperationRequest & { choice: { n: number } }): Promise<OperationAnswer> {
  const sse = (response.headers.get('content-type') ?? '').toLowerCase().startsWith('text/event-stream')
  return request.stream && sse ? streamImages(response, request.choice.n) : decodeImages(response, request)
}

async function decodeImages(response: Response, request: OperationRequest): Promise<OperationAnswer> {
  const text = await response.text()
  let data: unknown
  try {
    data = (JSON.parse(text) as { data?: unknown })?.data
  } catch {
    throw new UpstreamFailure(0, `upstream sent an images answer that is not JSON: ${text.slice(0, 200)}`, true)
  }
  // a 2xx without images delivered nothing: another channel may do better, and nothing is billed
  if (!Array.isArray(data) || data.length === 0) throw new UpstreamFailure(0, 'upstream answered without images (`data` empty or missing)', true)
  return { body: text, contentType: 'application/json', usage: imageUsage(data.length) }
}

