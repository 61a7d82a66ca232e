import { BadRequestError } from '../../errors'
import type { Meter } from '../../relay/meter/meter'
import { objectBody, optionalInteger, optionalString, requiredString, stringList } from '../fields'
import { textsMeter } from '../text-meter'
import type { OperationRequest } from '../types'

/** Who asked: an OpenAI client (`/v1/embeddings`) or a Gemini one (`:embedContent`, `:batchEmbedContents`). */
type EmbeddingsClient = 'openai' | 'gemini-one' | 'gemini-batch'

export interface EmbeddingsRequest extends OperationRequest {
  /** texts, or (OpenAI clients only) pre-tokenized inputs that only OpenAI-dialect upstreams take */
  texts: string[]
  tokenArrays?: number[][]
  /** the client sent one input, not an array (OpenAI answers the same either way) */
  single: boolean
  dimensions?: number
  encodingFormat: 'float' | 'base64'
  /** Gemini's task type (RETRIEVAL_QUERY …), kept for Gemini upstreams */
  taskType?: string
  client: EmbeddingsClient
  /** the client's own JSON body, sent on to OpenAI-dialect upstreams with only `model` replaced */
  body: Record<string, unknown>
}

/** OpenAI caps one call at 2048 inputs. */
export const MAX_INPUTS = 2048

/** `POST /v1/embeddings` as OpenAI documents it: `input` a string, strings, token ids or arrays of token ids. */
export function decodeEmbeddings(raw: unknown): EmbeddingsRequest {
  const body = objectBody(raw)
  const model = requiredString(body, 'model')
  const encodingFormat = optionalString(body, 'encoding_format', ['float', 'base64'] as const) ?? 'float'
  const dimensions = optionalInteger(body, 'dimensions', 1, 65_536)
  const tokens = tokenArrays(body.input)
  if (tokens) {
    const count = tokens.reduce((n, t) => n + t.length, 0)
    const meter: Meter = { model, stream: false, unit: 'token', input: count, exact: true, maxOutput: 0, count: () => count }
    return { model, stream: false, meter, texts: [], tokenArrays: tokens, single: !Array.isArray(body.input) || typeof body.input[0] === 'number', dimensions, encodingFormat, client: 'openai', body }
  }
  const { texts, single } = stringList(body, 'input', MAX_INPUTS)
  return { model, stream: false, meter: textsMeter(model, texts), texts, single, dimensions, encodingFormat, client: 'openai', body }
}

/** `input` as token ids (`[1, 2]`) or arrays of them (`[[1, 2], [3]]`); undefined when it is text. */
function tokenArrays(input: unknown): number[][] | undefined {
  if (!Array.isArray(input) || input.length === 0 || typeof input[0] === 'string') return undefined
  const arrays = typeof input[0] === 'number' ? [input] : input
  if (arrays.length > MAX_INPUTS) throw new BadRequestError(`input holds ${arrays.length} items; at most ${MAX_INPUTS} are allowed`, 'input')
  arrays.forEach((array, i) => {
    if (!Array.isArray(array) || array.length === 0 || !array.every((n) => Number.isInteger(n) && n >= 0)) {
      throw new BadRequestError(`input[${i}] must be a string, or a non-empty array of token ids`, `input[${i}]`)
    }
  })
  return arrays as number[][]
}
