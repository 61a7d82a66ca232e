import type { Usage } from '../../ir'
import type { EmbeddingsRequest } from './request'

/** The vectors of one answer, in input order, and the tokens the upstream counted (if it did). */
export interface Embeddings {
  vectors: number[][]
  promptTokens?: number
}

/** The answer in the client's own shape: OpenAI's list (floats or base64 float32), or Gemini's. */
export function renderEmbeddings(result: Embeddings, request: EmbeddingsRequest, promptTokens: number): string {
  if (request.client === 'gemini-one') return JSON.stringify({ embedding: { values: result.vectors[0] ?? [] } })
  if (request.client === 'gemini-batch') return JSON.stringify({ embeddings: result.vectors.map((values) => ({ values })) })
  const data = result.vectors.map((vector, index) => ({
    object: 'embedding',
    index,
    embedding: request.encodingFormat === 'base64' ? toBase64(vector) : vector,
  }))
  return JSON.stringify({ object: 'list', data, model: request.model, usage: { prompt_tokens: promptTokens, total_tokens: promptTokens } })
}

/** OpenAI's base64 format: the vector as little-endian float32 bytes. */
function toBase64(vector: number[]): string {
  return Buffer.from(new Float32Array(vector).buffer).toString('base64')
}

export function fromBase64(text: string): number[] {
  const bytes = Buffer.from(text, 'base64')
  return Array.from(new Float32Array(bytes.buffer, bytes.byteOffset, Math.floor(bytes.byteLength / 4)))
}

/** The request's input tokens as the gateway counted them, for upstreams that report none (Gemini). */
export function countedTokens(request: EmbeddingsRequest): number {
  return request.meter.exact ? request.meter.input : request.meter.count()
}

/** Input tokens as metering's usage (embeddings produce no output tokens). */
export function embeddingUsage(promptTokens: number): Usage {
  return { input: { noCache: promptTokens, cacheRead: 0, cacheWrite: 0 }, output: { text: 0, reasoning: 0 } }
}
