import type { Operation } from '../types'
import { geminiEmbeddings } from './gemini'
import { openAiEmbeddings } from './openai'
import { decodeEmbeddings, type EmbeddingsRequest } from './request'

export type { EmbeddingsRequest } from './request'

/** `POST /v1/embeddings`, billed per input token. */
export const embeddings: Operation<EmbeddingsRequest> = {
  id: 'embeddings',
  path: '/v1/embeddings',
  body: 'json',
  decode: decodeEmbeddings,
  dialects: { openai: openAiEmbeddings, gemini: geminiEmbeddings },
}
