import { BadRequestError } from '../../errors'
import type { OptionStore } from '../../options/store'
import { formFiles, formString } from '../../operations/form-fields'
import type { VideoRequest } from './types'

type Options = Pick<OptionStore, 'get'>

/**
 * A video request as new-api's TaskSubmitReq reads it, from OpenAI's `/v1/videos` (multipart as the SDK sends it, or
 * JSON) or new-api's `/v1/video/generations`: `model`, `prompt`, `seconds` (or `duration`), `size`, images as
 * `input_reference` (a file, a URL, `{image_url}`), `image` or `images`, and the vendor's own fields in `metadata`.
 * Each bad field is a 400 naming it; a length past VideoMaxSeconds and an image past VideoInputMaxBytes too.
 */
export function videoRequestOf(body: unknown, options: Options, defaultModel = 'sora-2'): VideoRequest {
  const fields = body instanceof FormData ? formFields(body) : jsonFields(body)
  const model = text(fields.model, 'model', 128) || defaultModel
  const prompt = text(fields.prompt, 'prompt', 32_000)
  if (!prompt.trim()) throw new BadRequestError('prompt is required and must be a non-empty string', 'prompt')
  const seconds = secondsOf(fields.seconds ?? fields.duration, fields.seconds !== undefined ? 'seconds' : 'duration', options)
  const size = text(fields.size, 'size', 32) || undefined
  if (size !== undefined && !/^[\w:.-]+$/.test(size)) throw new BadRequestError('size must be WIDTHxHEIGHT (1280x720) or a resolution label (1080p)', 'size')
  const maxImage = options.get<number>('VideoInputMaxBytes')
  const images = [...imagesOf(fields.image, 'image'), ...imagesOf(fields.images, 'images'), ...imagesOf(fields.input_reference, 'input_reference')]
  if (images.length > 4) throw new BadRequestError('at most 4 images per video request', 'images')
  for (const image of images) if (image.length > Math.ceil((maxImage * 4) / 3) + 64) throw new BadRequestError(`an image is over ${maxImage} bytes (VideoInputMaxBytes)`, 'images')
  const files = fields.files ?? []
  for (const file of files) if (file.size > maxImage) throw new BadRequestError(`input_reference is over ${maxImage} bytes (VideoInputMaxBytes)`, 'input_reference')
  const metadata = fields.metadata ?? {}
  if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata)) throw new BadRequestError('metadata must be an object', 'metadata')
  return { model, prompt, seconds, size, images, files, metadata: metadata as Record<string, unknown> }
}

interface Fields {
  model?: unknown
  prompt?: unknown
  seconds?: unknown
  duration?: unknown
  size?: unknown
  image?: unknown
  images?: unknown
  input_reference?: unknown
  metadata?: unknown
  files?: File[]
}

function jsonFields(body: unknown): Fields {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new BadRequestError('the body must be a JSON object')
  return body as Fields
}

function formFields(form: FormData): Fields {
  const files = formFiles(form, 'input_reference')
  const reference = files.length ? undefined : formString(form, 'input_reference')
  const metadata = formString(form, 'metadata')
  let parsed: unknown
  if (metadata !== undefined) {
    try {
      parsed = JSON.parse(metadata)
    } catch {
      throw new BadRequestError('metadata must be a JSON object', 'metadata')
    }
  }
  const get = (name: string) => formString(form, name)
  return { model: get('model'), prompt: get('prompt'), seconds: get('seconds'), duration: get('duration'), size: get('size'), image: get('image'), input_reference: reference, metadata: parsed, files }
}

function text(value: unknown, field: string, max: number): string {
  if (value === undefined || value === null) return ''
  if (typeof value !== 'string') throw new BadRequestError(`${field} must be a string`, field)
  if (value.length > max) throw new BadRequestError(`${field} is longer than ${max} characters`, field)
  return value
}

/** `seconds` as OpenAI sends it ("8"), `duration` as new-api's clients do (8 or "8"). */
function secondsOf(value: unknown, field: string, options: Options): number | undefined {
  if (value === undefined || value === null || value === '') return undefined
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^\d{1,4}$/.test(value.trim()) ? Number(value) : NaN
  const max = options.get<number>('VideoMaxSeconds')
  if (!Number.isInteger(n) || n < 1 || n > max) throw new BadRequestError(`${field} must be a whole number of seconds from 1 to ${max} (VideoMaxSeconds)`, field)
  return n
}

function imagesOf(value: unknown, field: string): string[] {
  if (value === undefined || value === null || value === '') return []
  if (typeof value === 'string') return [value]
  if (Array.isArray(value)) return value.flatMap((item) => imagesOf(item, field))
  if (typeof value === 'object' && typeof (value as { image_url?: unknown }).image_url === 'string') return [(value as { image_url: string }).image_url]
  throw new BadRequestError(`${field} must be an image URL, a data URL, or {"image_url": …}`, field)
}
