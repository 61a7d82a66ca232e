import { BadRequestError } from '../../errors'
import { UpstreamFailure } from '../../relay/failure'
import type { OperationDialect } from '../types'
import { countedTokens, embeddingUsage, fromBase64, renderEmbeddings } from './render'
import type { EmbeddingsRequest } from './request'

/** How one vendor's copy of OpenAI's `/v1/embeddings` differs from the original. */
export interface OpenAiShape {
  /** who answers, for the errors that name it */
  name: string
  /** the upstream takes token ids as `input` (OpenAI, Azure, SiliconFlow …) */
  tokenIds: boolean
  /** the upstream answers floats only and refuses or ignores `encoding_format`: none is sent, base64 is made here */
  floatsOnly?: boolean
  /** the client's fields under the names the upstream uses (Mistral's `output_dimension` for `dimensions`) */
  rename?: Readonly<Record<string, string>>
  /** the client's fields the upstream refuses */
  drop?: readonly string[]
  /** a field of the vendor's own that picks its answer format (Jina's `embedding_type`): a client that sends it gets the answer untouched */
  formatField?: string
}

/**
 * A dialect for an OpenAI-shaped `/embeddings`. An OpenAI client's body goes on with `model` replaced (and the
 * shape's renames and drops); its answer comes back as sent when it is in the format the client asked for, else
 * re-rendered (a vendor that ignores `encoding_format` answers floats to the SDK's default base64 request). A
 * Gemini client's texts are asked for as floats and re-shaped.
 */
export function openAiShaped(shape: OpenAiShape): OperationDialect<EmbeddingsRequest> {
  return {
    encode(request, upstreamModel) {
      if (request.tokenArrays && !shape.tokenIds) throw new BadRequestError(`input as token ids is not served by ${shape.name}; send text`, 'input')
      const fields: Record<string, unknown> =
        request.client === 'openai'
          ? { ...request.body }
          : { input: request.texts, encoding_format: 'float', ...(request.dimensions ? { dimensions: request.dimensions } : {}) }
      if (shape.floatsOnly) delete fields.encoding_format
      for (const field of shape.drop ?? []) delete fields[field]
      for (const [from, to] of Object.entries(shape.rename ?? {})) {
        if (fields[from] === undefined) continue
        fields[to] = fields[from]
        delete fields[from]
      }
      fields.model = upstreamModel
      return { body: JSON.stringify(fields), contentType: 'application/json' }
    },

    async decode(response, request) {
      const text = await response.text()
      const answer = parseAnswer(text, request)
      const promptTokens = answer.usage?.prompt_tokens ?? answer.usage?.total_tokens
      const usage = typeof promptTokens === 'number' && promptTokens > 0 ? embeddingUsage(promptTokens) : undefined
      const untouched = request.client === 'openai' && (sentOwnFormat(shape, request) || inFormat(answer, request.encodingFormat))
      if (untouched) return { body: text, contentType: 'application/json', usage }
      const vectors = answer.data.map((item) => (typeof item.embedding === 'string' ? fromBase64(item.embedding) : item.embedding))
      return { body: renderEmbeddings({ vectors }, request, promptTokens ?? countedTokens(request)), contentType: 'application/json', usage }
    },
  }
}

/** OpenAI itself, Azure, SiliconFlow, Ollama, OpenRouter and any OpenAI-compatible server. */
export const openAiEmbeddings = openAiShaped({ name: 'this upstream', tokenIds: true })

function sentOwnFormat(shape: OpenAiShape, request: EmbeddingsRequest): boolean {
  return shape.formatField !== undefined && request.body[shape.formatField] !== undefined
}

/** Every vector is in the format the client asked for: base64 strings, or arrays of floats. */
function inFormat(answer: OpenAiAnswer, format: EmbeddingsRequest['encodingFormat']): boolean {
  return answer.data.every((item) => (format === 'base64' ? typeof item.embedding === 'string' : Array.isArray(item.embedding)))
}

interface OpenAiAnswer {
  data: { index?: number; embedding: number[] | string }[]
  usage?: { prompt_tokens?: number; total_tokens?: number }
}

function parseAnswer(text: string, request: EmbeddingsRequest): OpenAiAnswer {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    throw new UpstreamFailure(0, `upstream sent an embeddings answer that is not JSON: ${text.slice(0, 200)}`, true)
  }
  const data = (json as { data?: unknown })?.data
  if (!Array.isArray(data)) throw new UpstreamFailure(0, 'upstream sent an embeddings answer without `data`', true)
  const inputs = request.tokenArrays?.length ?? request.texts.length
  if (data.length !== inputs) throw new UpstreamFailure(0, `upstream answered ${data.length} embeddings for ${inputs} inputs`, true)
  // answers are in input order by `index`; a few servers shuffle them
  const sorted = [...(data as OpenAiAnswer['data'])].sort((a, b) => (a.index ?? 0) - (b.index ?? 0))
  return { data: sorted, usage: (json as OpenAiAnswer).usage }
}
