import { BadRequestError } from '../../errors'
import { exactMeter } from '../../relay/meter/meter'
import { checkFileSize, formBoolean, formFile, formFiles, formInteger, formString, requiredFormString } from '../form-fields'
import type { OperationRequest } from '../types'
import { checkImageOptions, checkImageStream, familyFields, type ImageChoice } from './families'
import { DEFAULT_IMAGE_MODEL } from './generation-request'
import { DALL_E_2_MAX_IMAGE_BYTES } from './variation-request'

export interface ImageEditRequest extends OperationRequest {
  choice: ImageChoice
  /** the client's form: its files go upstream as they came */
  form: FormData
}

/** GPT image models take up to 16 input images; dall-e-2 one. */
const MAX_IMAGES = 16

/** `POST /v1/images/edits` (multipart: `image` or `image[]`, `mask`, `prompt` …), billed per image like generations. */
export function decodeImageEdit(raw: unknown): ImageEditRequest {
  if (!(raw instanceof FormData)) throw new BadRequestError('this route takes multipart/form-data (the image files with their fields)')
  const form = raw
  const model = form.has('model') ? requiredFormString(form, 'model') : DEFAULT_IMAGE_MODEL
  const prompt = requiredFormString(form, 'prompt')
  const images = formFiles(form, 'image')
  if (images.length === 0) throw new BadRequestError('image is required: the image file to edit (or several as image[])', 'image')
  if (images.length > MAX_IMAGES) throw new BadRequestError(`image holds ${images.length} files; at most ${MAX_IMAGES} are allowed`, 'image')
  const mask = formFile(form, 'mask')
  formString(form, 'background', ['transparent', 'opaque', 'auto'] as const)
  formString(form, 'output_format', ['png', 'jpeg', 'webp'] as const)
  formString(form, 'input_fidelity', ['high', 'low'] as const)
  formInteger(form, 'output_compression', 0, 100)
  formInteger(form, 'partial_images', 0, 3)
  const choice = checkImageOptions({
    model,
    prompt,
    n: formInteger(form, 'n', 1, 10),
    size: formString(form, 'size'),
    quality: formString(form, 'quality'),
    responseFormat: formString(form, 'response_format', ['url', 'b64_json'] as const),
    present: familyFields(new Set(form.keys())),
  })
  if (choice.family === 'dall-e-3') throw new BadRequestError('dall-e-3 does not edit images; use gpt-image-1 or dall-e-2', 'model')
  if (choice.family === 'dall-e-2' && images.length > 1) throw new BadRequestError('dall-e-2 edits one image; send a single image', 'image')
  if (choice.family === 'dall-e-2') {
    checkFileSize(images[0], 'image', DALL_E_2_MAX_IMAGE_BYTES)
    checkFileSize(mask, 'mask', DALL_E_2_MAX_IMAGE_BYTES)
  }
  const stream = checkImageStream(choice, model, formBoolean(form, 'stream') ?? false)
  const meter = exactMeter(model, 'image', choice.n, { stream, variant: choice.variant, choices: { count: choice.n, field: 'n' } })
  return { model, stream, meter, choice, form }
}
