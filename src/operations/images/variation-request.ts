import { BadRequestError } from '../../errors'
import { exactMeter } from '../../relay/meter/meter'
import { checkFileSize, formFile, formFiles, formInteger, formString, requiredFormString } from '../form-fields'
import type { OperationRequest } from '../types'
import { checkImageOptions, type ImageChoice } from './families'

export interface ImageVariationRequest extends OperationRequest {
  choice: ImageChoice
  /** the client's form: its image goes upstream as it came */
  form: FormData
}

/** OpenAI serves variations with dall-e-2 only, and takes it as the default. */
const VARIATION_MODEL = 'dall-e-2'
/** OpenAI takes a dall-e-2 image (to vary or edit, and its mask) smaller than 4 MB. */
export const DALL_E_2_MAX_IMAGE_BYTES = 4 * 1024 * 1024

/** `POST /v1/images/variations` (multipart: one square PNG `image`, `n`, `size`, `response_format`), billed per image by size. */
export function decodeImageVariation(raw: unknown): ImageVariationRequest {
  if (!(raw instanceof FormData)) throw new BadRequestError('this route takes multipart/form-data (the image file with its fields)')
  const form = raw
  const model = form.has('model') ? requiredFormString(form, 'model') : VARIATION_MODEL
  if (formFiles(form, 'image').length !== 1 || !formFile(form, 'image')) throw new BadRequestError('image is required: one PNG file to make variations of', 'image')
  checkFileSize(formFile(form, 'image'), 'image', DALL_E_2_MAX_IMAGE_BYTES)
  if (form.has('prompt')) throw new BadRequestError('variations take no prompt (use /v1/images/edits to edit with one)', 'prompt')
  const choice = checkImageOptions({
    model,
    prompt: '',
    n: formInteger(form, 'n', 1, 10),
    size: formString(form, 'size'),
    responseFormat: formString(form, 'response_format', ['url', 'b64_json'] as const),
    present: [],
  })
  if (choice.family !== 'dall-e-2' && choice.family !== 'other') throw new BadRequestError(`${model} makes no variations; use dall-e-2`, 'model')
  const meter = exactMeter(model, 'image', choice.n, { variant: choice.variant, choices: { count: choice.n, field: 'n' } })
  return { model, stream: false, meter, choice, form }
}
