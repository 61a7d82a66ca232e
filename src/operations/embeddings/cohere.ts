import { BadRequestError } from '../../errors'
import { UpstreamFailure } from '../../relay/failure'
import type { OperationDialect } from '../types'
import { countedTokens, embeddingUsage, renderEmbeddings } from './render'
import type { EmbeddingsRequest } from './request'

const INPUT_TYPES = ['search_document', 'search_query', 'classification', 'clustering'] as const

/** Gemini's task types as Cohere's input types (the two name the same idea). */
const FROM_TASK_TYPE: Record<string, (typeof INPUT_TYPES)[number]> = {
  RETRIEVAL_QUERY: 'search_query',
  CODE_RETRIEVAL_QUERY: 'search_query',
  QUESTION_ANSWERING: 'search_query',
  FACT_VERIFICATION: 'search_query',
  RETRIEVAL_DOCUMENT: 'search_document',
  CLASSIFICATION: 'classification',
  CLUSTERING: 'clustering',
}

/**
 * Cohere's native `POST /v2/embed`, not its Compatibility API: embed v3 and later need an `input_type`, which the
 * Compatibility API neither takes nor lets a client choose (queries and documents embed differently), and it
 * drops `dimensions` where `/v2/embed` has `output_dimension` (embed-v4.0). An OpenAI client may send Cohere's
 * `input_type` and `truncate` as extra fields; a Gemini client's `taskType` maps onto `input_type`; the default is
 * `search_document`. Floats are asked for and base64 made here. Usage is Cohere's billed input tokens.
 */
export const cohereEmbeddings: OperationDialect<EmbeddingsRequest> = {
  encode(request, upstreamModel) {
    if (request.tokenArrays) throw new BadRequestError('input as token ids is not served by Cohere; send text', 'input')
    const own = request.client === 'openai' ? request.body : {}
    const body: Record<string, unknown> = {
      model: upstreamModel,
      texts: request.texts,
      input_type: inputType(own.input_type, request.taskType),
      embedding_types: ['float'],
    }
    if (request.dimensions) body.output_dimension = request.dimensions
    if (own.truncate !== undefined) body.truncate = own.truncate
    return { body: JSON.stringify(body), contentType: 'application/json' }
  },

  async decode(response, request) {
    const text = await response.text()
    let json: { embeddings?: { float?: unknown }; meta?: { billed_units?: { input_tokens?: unknown } } }
    try {
      json = JSON.parse(text)
    } catch {
      throw new UpstreamFailure(0, `upstream sent an embed answer that is not JSON: ${text.slice(0, 200)}`, true)
    }
    const vectors = json.embeddings?.float
    if (!Array.isArray(vectors) || vectors.length !== request.texts.length) {
      throw new UpstreamFailure(0, `upstream answered ${Array.isArray(vectors) ? vectors.length : 'no'} float embeddings for ${request.texts.length} inputs`, true)
    }
    const billed = json.meta?.billed_units?.input_tokens
    const tokens = typeof billed === 'number' && billed > 0 ? billed : undefined
    return {
      body: renderEmbeddings({ vectors: vectors as number[][] }, request, tokens ?? countedTokens(request)),
      contentType: 'application/json',
      usage: tokens === undefined ? undefined : embeddingUsage(tokens),
    }
  },
}

function inputType(asked: unknown, taskType: string | undefined): string {
  if (asked === undefined || asked === null) return (taskType && FROM_TASK_TYPE[taskType]) || 'search_document'
  if (typeof asked !== 'string' || !(INPUT_TYPES as readonly string[]).includes(asked)) {
    throw new BadRequestError(`input_type must be one of ${INPUT_TYPES.map((t) => `"${t}"`).join(', ')}`, 'input_type')
  }
  return asked
}
