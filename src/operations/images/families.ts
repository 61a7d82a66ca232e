import { BadRequestError } from '../../errors'

/**
 * What each OpenAI image model family accepts, as OpenAI documents it, and the defaults it prices by. Models of
 * other vendors (compatible servers) are checked only for the shape of `size`; their prices come from ImagePrice
 * or ModelPrice.
 */
type ImageFamily = 'dall-e-2' | 'dall-e-3' | 'gpt-image-1' | 'gpt-image' | 'imagen' | 'seedream' | 'dashscope' | 'other'

interface FamilyRules {
  sizes?: readonly string[]
  qualities?: readonly string[]
  defaultSize: string
  defaultQuality?: string
  maxN: number
  maxPrompt: number
  /** `response_format` is legacy: GPT image models always answer base64 and refuse the field */
  responseFormat: boolean
  /** fields only this family takes (the others refuse them by name) */
  own: readonly string[]
}

const GPT_IMAGE_FIELDS = ['background', 'output_format', 'output_compression', 'moderation', 'input_fidelity', 'partial_images']
const GPT_IMAGE_SIZES = ['auto', '1024x1024', '1536x1024', '1024x1536']

const RULES: Record<ImageFamily, FamilyRules> = {
  'dall-e-2': { sizes: ['256x256', '512x512', '1024x1024'], qualities: ['standard'], defaultSize: '1024x1024', maxN: 10, maxPrompt: 1000, responseFormat: true, own: [] },
  'dall-e-3': { sizes: ['1024x1024', '1792x1024', '1024x1792'], qualities: ['standard', 'hd'], defaultSize: '1024x1024', defaultQuality: 'standard', maxN: 1, maxPrompt: 4000, responseFormat: true, own: ['style'] },
  // gpt-image-1, -1-mini and -1.5: three sizes; `auto` size and quality are priced as the costliest they can pick
  'gpt-image-1': { sizes: GPT_IMAGE_SIZES, qualities: ['low', 'medium', 'high', 'auto'], defaultSize: 'auto', defaultQuality: 'auto', maxN: 10, maxPrompt: 32000, responseFormat: false, own: GPT_IMAGE_FIELDS },
  // later GPT image models take any WIDTHxHEIGHT and more qualities
  'gpt-image': { qualities: ['low', 'medium', 'high', 'xhigh', 'max', 'auto'], defaultSize: 'auto', defaultQuality: 'auto', maxN: 10, maxPrompt: 32000, responseFormat: false, own: GPT_IMAGE_FIELDS },
  // Google's Imagen (`:predict`): up to 4 samples; the size is sent as its nearest aspect ratio (images/imagen.ts)
  imagen: { defaultSize: 'auto', maxN: 4, maxPrompt: 100_000, responseFormat: true, own: [] },
  // Doubao Seedream on Ark: `1K`/`2K`/`4K` or WIDTHxHEIGHT; more than one image only as a sequence (`max_images`, up to 15)
  seedream: { defaultSize: 'auto', maxN: 15, maxPrompt: 100_000, responseFormat: true, own: [] },
  // Wanx and Qwen-Image on DashScope: up to 4 images, links only (images/dashscope.ts)
  dashscope: { defaultSize: 'auto', maxN: 4, maxPrompt: 800, responseFormat: true, own: [] },
  other: { defaultSize: 'auto', maxN: 10, maxPrompt: 100_000, responseFormat: true, own: [] },
}

const FAMILY_OWNED = new Set(Object.values(RULES).flatMap((r) => r.own))

export function familyOf(model: string): ImageFamily {
  const name = model.toLowerCase().replace(/^.*\//, '')
  if (name.startsWith('dall-e-2')) return 'dall-e-2'
  if (name.startsWith('dall-e-3')) return 'dall-e-3'
  if (/^gpt-image-1(\.5)?(-mini)?(-\d{4}-\d{2}-\d{2})?$/.test(name)) return 'gpt-image-1'
  if (name.startsWith('gpt-image') || name.startsWith('chatgpt-image')) return 'gpt-image'
  if (name.startsWith('imagen-')) return 'imagen'
  if (name.includes('seedream')) return 'seedream'
  if (/^(wanx|wan2\.\d+-t2i|qwen-image)/.test(name)) return 'dashscope'
  return 'other'
}

/** The options every image request has, read from JSON or from a form. */
export interface ImageOptions {
  model: string
  prompt: string
  n?: number
  size?: string
  quality?: string
  responseFormat?: 'url' | 'b64_json'
  /** the family-specific fields the client sent (`style`, `background` …) */
  present: readonly string[]
}

/** What the checks decided: the count, the price variant, and whether `response_format` must be dropped upstream. */
export interface ImageChoice {
  family: ImageFamily
  n: number
  variant: string
  dropResponseFormat: boolean
}

/** Checks the options against the model's family; every refusal is a 400 naming the field. */
export function checkImageOptions(options: ImageOptions): ImageChoice {
  const family = familyOf(options.model)
  const rules = RULES[family]
  const n = options.n ?? 1
  if (n > rules.maxN) throw new BadRequestError(`n must be ${rules.maxN === 1 ? '1' : `from 1 to ${rules.maxN}`} for ${options.model}`, 'n')
  if ([...options.prompt].length > rules.maxPrompt) throw new BadRequestError(`prompt is longer than ${rules.maxPrompt} characters, the most ${options.model} takes`, 'prompt')
  const size = options.size ?? rules.defaultSize
  const sizeOk = rules.sizes ? rules.sizes.includes(size) : size === 'auto' || /^\d{2,5}x\d{2,5}$/.test(size) || (family === 'seedream' && /^[124]K$/.test(size))
  if (!sizeOk) {
    const shapes = family === 'seedream' ? '"1K", "2K", "4K" or WIDTHxHEIGHT' : '"auto" or WIDTHxHEIGHT'
    throw new BadRequestError(`size must be ${rules.sizes ? `one of ${rules.sizes.join(', ')}` : shapes} for ${options.model}, got "${size.slice(0, 30)}"`, 'size')
  }
  if (options.quality !== undefined && rules.qualities && !rules.qualities.includes(options.quality)) {
    throw new BadRequestError(`quality must be one of ${rules.qualities.join(', ')} for ${options.model}, got "${options.quality.slice(0, 30)}"`, 'quality')
  }
  if (family !== 'other') {
    const foreign = options.present.find((field) => FAMILY_OWNED.has(field) && !rules.own.includes(field))
    if (foreign) throw new BadRequestError(`${foreign} is not supported by ${options.model}`, foreign)
  }
  if (family === 'dashscope' && options.responseFormat === 'b64_json') {
    throw new BadRequestError(`${options.model} answers links only; response_format "b64_json" is not supported`, 'response_format')
  }
  if (!rules.responseFormat && options.responseFormat === 'url') {
    throw new BadRequestError(`${options.model} always answers base64 (b64_json); response_format "url" is not supported`, 'response_format')
  }
  const quality = options.quality ?? rules.defaultQuality
  // dall-e-2 is priced by size alone; the others by size and quality (`1024x1024/hd`, `auto/auto`)
  const variant = family === 'dall-e-2' || quality === undefined ? size : `${size}/${quality}`
  return { family, n, variant, dropResponseFormat: !rules.responseFormat && options.responseFormat !== undefined }
}

/** The families whose upstreams stream images (`stream: true`): GPT image models' partial images, Seedream's sequences; a compatible server's models may. */
const STREAMING: ReadonlySet<ImageFamily> = new Set(['gpt-image-1', 'gpt-image', 'seedream', 'other'])

/** `stream: true` checked against the model's family: a 400 naming `stream` for a model that cannot stream. */
export function checkImageStream(choice: ImageChoice, model: string, stream: boolean): boolean {
  if (stream && !STREAMING.has(choice.family)) throw new BadRequestError(`${model} does not stream images; leave stream unset (GPT image models stream partial images)`, 'stream')
  return stream
}

/** The fields of `body` (JSON keys or form names) that belong to one family only. */
export function familyFields(names: Iterable<string>): string[] {
  return [...names].filter((name) => FAMILY_OWNED.has(name))
}
