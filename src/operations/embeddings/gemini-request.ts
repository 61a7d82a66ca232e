import { BadRequestError } from '../../errors'
import { objectBody } from '../fields'
import { textsMeter } from '../text-meter'
import { MAX_INPUTS, type EmbeddingsRequest } from './request'

/** A 400 whose message starts with the field: Gemini's error body has no place for it besides the message. */
function bad(field: string, message: string): BadRequestError {
  return new BadRequestError(`${field}: ${message}`, field)
}

/** One `EmbedContentRequest` as Gemini documents it, checked: its text, task type and dimensions. */
interface OneRequest {
  text: string
  taskType?: string
  dimensions?: number
}

/**
 * A Gemini client's `models/{model}:embedContent` body (`{content, taskType?, title?, outputDimensionality?}`), or
 * its `:batchEmbedContents` body (`{requests: [that, with its model]}`), as the operation's request. The model
 * comes from the path; a request naming another model is refused, as Gemini does. A content's text parts are one
 * input (joined by newlines for upstreams that take plain text). One batch shares one task type and one size:
 * other upstreams take a single value for the whole call.
 */
export function decodeGeminiEmbeddings(raw: unknown, model: string, batch: boolean): EmbeddingsRequest {
  const body = objectBody(raw)
  const requests = batch ? batchRequests(body, model) : [oneRequest(body, model, '')]
  const first = requests[0]!
  requests.forEach((r, i) => {
    if (r.taskType !== first.taskType) throw bad(`requests[${i}].taskType`, 'every request of one batch must have the same taskType')
    if (r.dimensions !== first.dimensions) throw bad(`requests[${i}].outputDimensionality`, 'every request of one batch must have the same outputDimensionality')
  })
  const texts = requests.map((r) => r.text)
  return {
    model,
    stream: false,
    meter: textsMeter(model, texts),
    texts,
    single: !batch,
    dimensions: first.dimensions,
    encodingFormat: 'float',
    taskType: first.taskType,
    client: batch ? 'gemini-batch' : 'gemini-one',
    body,
  }
}

function batchRequests(body: Record<string, unknown>, model: string): OneRequest[] {
  const list = body.requests
  if (!Array.isArray(list) || list.length === 0) throw bad('requests', 'a non-empty array of embed content requests is required')
  if (list.length > MAX_INPUTS) throw bad('requests', `${list.length} items; at most ${MAX_INPUTS} are allowed`)
  return list.map((item, i) => {
    const where = `requests[${i}].`
    if (typeof item !== 'object' || item === null || Array.isArray(item)) throw bad(`requests[${i}]`, 'each request must be an object')
    return oneRequest(item as Record<string, unknown>, model, where)
  })
}

function oneRequest(r: Record<string, unknown>, model: string, where: string): OneRequest {
  if (r.model !== undefined && r.model !== `models/${model}` && r.model !== model) {
    throw bad(`${where}model`, `"${String(r.model).slice(0, 100)}" does not match the model in the URL, models/${model}`)
  }
  const out: OneRequest = { text: contentText(r.content, `${where}content`) }
  if (r.taskType !== undefined && r.taskType !== null) {
    if (typeof r.taskType !== 'string' || !/^[A-Z_]+$/.test(r.taskType)) throw bad(`${where}taskType`, 'must be a task type name such as RETRIEVAL_QUERY')
    out.taskType = r.taskType
  }
  if (r.outputDimensionality !== undefined && r.outputDimensionality !== null) {
    const d = r.outputDimensionality
    if (typeof d !== 'number' || !Number.isInteger(d) || d < 1 || d > 65_536) throw bad(`${where}outputDimensionality`, 'must be an integer from 1 to 65536')
    out.dimensions = d
  }
  if (r.title !== undefined && typeof r.title !== 'string') throw bad(`${where}title`, 'must be a string')
  return out
}

/** The text of a content: its text parts, joined. Other parts (images, files) are not embedded through this gateway. */
function contentText(content: unknown, where: string): string {
  const parts = (content as { parts?: unknown } | null)?.parts
  if (typeof content !== 'object' || content === null || !Array.isArray(parts) || parts.length === 0) {
    throw bad(where, 'an object with a non-empty parts array is required')
  }
  const texts = parts.map((part, j) => {
    const text = (part as { text?: unknown } | null)?.text
    if (typeof text !== 'string') throw bad(`${where}.parts[${j}]`, 'only text parts can be embedded')
    return text
  })
  const joined = texts.join('\n')
  if (!joined.trim()) throw bad(`${where}.parts`, 'no text to embed')
  return joined
}
