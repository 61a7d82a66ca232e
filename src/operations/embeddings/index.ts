import type { Operation } from '../types'
import { cohereEmbeddings } from './cohere'
import { geminiEmbeddings } from './gemini'
import { decodeGeminiEmbeddings } from './gemini-request'
import { openAiEmbeddings } from './openai'
import { decodeEmbeddings, type EmbeddingsRequest } from './request'
import { floatEmbeddings, jinaEmbeddings, mistralEmbeddings } from './vendors'

export type { EmbeddingsRequest } from './request'

/** `POST /v1/embeddings`, billed per input token. Provider data names the dialect its channels speak. */
export const embeddings: Operation<EmbeddingsRequest> = {
  id: 'embeddings',
  path: '/v1/embeddings',
  body: 'json',
  decode: decodeEmbeddings,
  dialects: {
    openai: openAiEmbeddings,
    floats: floatEmbeddings,
    jina: jinaEmbeddings,
    mistral: mistralEmbeddings,
    cohere: cohereEmbeddings,
    gemini: geminiEmbeddings,
  },
  probe: (model) => ({ model, input: 'hi', encoding_format: 'float' }),
}

/** The same operation for a Gemini client: `models/{model}:embedContent` (`batch` false) or `:batchEmbedContents`. */
export function geminiEmbeddingsOperation(model: string, batch: boolean): Operation<EmbeddingsRequest> {
  return { ...embeddings, decode: (body) => decodeGeminiEmbeddings(body, model, batch) }
}
