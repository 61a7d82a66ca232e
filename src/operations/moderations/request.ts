import { BadRequestError } from '../../errors'
import { objectBody, optionalString } from '../fields'
import { textsMeter } from '../text-meter'
import type { OperationRequest } from '../types'

export interface ModerationsRequest extends OperationRequest {
  /** the texts to classify (images are sent on, not metered) */
  texts: string[]
  /** the client's own body, sent on with only `model` replaced */
  body: Record<string, unknown>
}

/** OpenAI's default when `model` is left out. */
const DEFAULT_MODERATION_MODEL = 'omni-moderation-latest'
const MAX_INPUTS = 2048

/**
 * `POST /v1/moderations` as OpenAI documents it: `input` a string, strings, or (omni models) an array of
 * `{type: "text", text}` and `{type: "image_url", image_url: {url}}` parts; `model` optional. Billed per text token.
 */
export function decodeModerations(raw: unknown): ModerationsRequest {
  const body = objectBody(raw)
  const model = optionalString(body, 'model') || DEFAULT_MODERATION_MODEL
  const texts = inputTexts(body.input)
  return { model, stream: false, meter: textsMeter(model, texts), texts, body }
}

function inputTexts(input: unknown): string[] {
  if (typeof input === 'string') return [input]
  if (!Array.isArray(input) || input.length === 0) throw new BadRequestError('input is required: a string, an array of strings, or an array of text and image_url parts', 'input')
  if (input.length > MAX_INPUTS) throw new BadRequestError(`input holds ${input.length} items; at most ${MAX_INPUTS} are allowed`, 'input')
  const parts = typeof input[0] !== 'string'
  const texts: string[] = []
  input.forEach((item, i) => {
    if (!parts) {
      if (typeof item !== 'string') throw new BadRequestError(`input[${i}] must be a string, as the items before it are`, `input[${i}]`)
      texts.push(item)
      return
    }
    const text = partText(item, i)
    if (text !== undefined) texts.push(text)
  })
  return texts
}

/** One multimodal part: its text, or undefined for an image. */
function partText(part: unknown, i: number): string | undefined {
  const p = (typeof part === 'object' && part !== null && !Array.isArray(part) ? part : undefined) as { type?: unknown; text?: unknown; image_url?: { url?: unknown } } | undefined
  if (p?.type === 'text') {
    if (typeof p.text !== 'string') throw new BadRequestError(`input[${i}].text must be a string`, `input[${i}].text`)
    return p.text
  }
  if (p?.type === 'image_url') {
    if (typeof p.image_url?.url !== 'string' || !p.image_url.url) throw new BadRequestError(`input[${i}].image_url.url must be an image URL or a data URL`, `input[${i}].image_url.url`)
    return undefined
  }
  throw new BadRequestError(`input[${i}] must be {"type": "text", "text": …} or {"type": "image_url", "image_url": {"url": …}}`, `input[${i}].type`)
}
