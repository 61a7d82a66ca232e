import { BadRequestError } from '../../errors'
import { exactMeter } from '../../relay/meter/meter'
import { objectBody, optionalBoolean, optionalInteger, optionalString, requiredString } from '../fields'
import type { OperationRequest } from '../types'
import { checkImageOptions, familyFields, type ImageChoice } from './families'

export interface ImageGenerationRequest extends OperationRequest {
  choice: ImageChoice
  /** the client's JSON body, sent on with `model` replaced (and a legacy `response_format` dropped for GPT image models) */
  body: Record<string, unknown>
}

/** OpenAI's default when a request names no model (the API's documented default). */
export const DEFAULT_IMAGE_MODEL = 'dall-e-2'

/** `POST /v1/images/generations`: billed per image by size and quality; the reservation is n images. */
export function decodeImageGeneration(raw: unknown): ImageGenerationRequest {
  const body = objectBody(raw)
  const model = body.model === undefined || body.model === null ? DEFAULT_IMAGE_MODEL : requiredString(body, 'model')
  const prompt = requiredString(body, 'prompt')
  if (optionalBoolean(body, 'stream')) throw new BadRequestError('streamed image generation (partial images) is not served; leave stream unset', 'stream')
  optionalString(body, 'style', ['vivid', 'natural'] as const)
  optionalString(body, 'background', ['transparent', 'opaque', 'auto'] as const)
  optionalString(body, 'output_format', ['png', 'jpeg', 'webp'] as const)
  optionalString(body, 'moderation', ['low', 'auto'] as const)
  optionalInteger(body, 'output_compression', 0, 100)
  const choice = checkImageOptions({
    model,
    prompt,
    n: optionalInteger(body, 'n', 1, 10),
    size: optionalString(body, 'size'),
    quality: optionalString(body, 'quality'),
    responseFormat: optionalString(body, 'response_format', ['url', 'b64_json'] as const),
    present: familyFields(Object.keys(body).filter((k) => body[k] !== undefined && body[k] !== null)),
  })
  const meter = exactMeter(model, 'image', choice.n, { variant: choice.variant, choices: { count: choice.n, field: 'n' } })
  return { model, stream: false, meter, choice, body }
}
