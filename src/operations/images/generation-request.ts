import { BadRequestError } from '../../errors'
import { exactMeter } from '../../relay/meter/meter'
import { objectBody, optionalBoolean, optionalInteger, optionalString, requiredString } from '../fields'
import type { OperationRequest } from '../types'
import { checkImageOptions, checkImageStream, familyFields, familyOf, type ImageChoice } from './families'

export interface ImageGenerationRequest extends OperationRequest {
  choice: ImageChoice
  /** the client's JSON body, sent on with `model` replaced (and a legacy `response_format` dropped for GPT image models) */
  body: Record<string, unknown>
}

/** OpenAI's default when a request names no model (the API's documented default). */
export const DEFAULT_IMAGE_MODEL = 'dall-e-2'

/** `POST /v1/images/generations`: billed per image by size and quality; the reservation is n images. `stream: true` relays the upstream's image events. */
export function decodeImageGeneration(raw: unknown): ImageGenerationRequest {
  const body = objectBody(raw)
  const model = body.model === undefined || body.model === null ? DEFAULT_IMAGE_MODEL : requiredString(body, 'model')
  const prompt = requiredString(body, 'prompt')
  optionalString(body, 'style', ['vivid', 'natural'] as const)
  optionalString(body, 'background', ['transparent', 'opaque', 'auto'] as const)
  optionalString(body, 'output_format', ['png', 'jpeg', 'webp'] as const)
  optionalString(body, 'moderation', ['low', 'auto'] as const)
  optionalInteger(body, 'output_compression', 0, 100)
  optionalInteger(body, 'partial_images', 0, 3)
  const choice = checkImageOptions({
    model,
    prompt,
    n: familyOf(model) === 'seedream' ? seedreamImages(body) : optionalInteger(body, 'n', 1, 10),
    size: optionalString(body, 'size'),
    quality: optionalString(body, 'quality'),
    responseFormat: optionalString(body, 'response_format', ['url', 'b64_json'] as const),
    present: familyFields(Object.keys(body).filter((k) => body[k] !== undefined && body[k] !== null)),
  })
  const stream = checkImageStream(choice, model, optionalBoolean(body, 'stream') ?? false)
  const meter = exactMeter(model, 'image', choice.n, { stream, variant: choice.variant, choices: { count: choice.n, field: 'n' } })
  return { model, stream, meter, choice, body }
}

/**
 * How many images a Seedream request can make: Ark ignores `n`; one image, or a sequence of up to `max_images`
 * (default 15) when `sequential_image_generation` is `auto`. The reservation covers the most it can make.
 */
function seedreamImages(body: Record<string, unknown>): number {
  if (optionalString(body, 'sequential_image_generation', ['auto', 'disabled'] as const) !== 'auto') return 1
  const options = body.sequential_image_generation_options
  if (options === undefined || options === null) return 15
  if (typeof options !== 'object' || Array.isArray(options)) throw new BadRequestError('sequential_image_generation_options must be an object', 'sequential_image_generation_options')
  return optionalInteger(options as Record<string, unknown>, 'max_images', 1, 15) ?? 15
}
