/**
 * Whether a model name is an embedding model's, by the names vendors give them: `text-embedding-3-small`,
 * `gemini-embedding-001`, `embed-v4.0`, `mistral-embed`, `jina-embeddings-v3`, `nomic-embed-text`, and the
 * open families served by Ollama, SiliconFlow, Xinference and Cloudflare (`BAAI/bge-m3`, `@cf/baai/bge-large-en-v1.5`,
 * `bce-embedding-base_v1`, `m3e-base`, `gte-large`, `e5-mistral-7b-instruct`, `all-minilm`). Rerankers (`bge-reranker`) are not.
 */
export function looksLikeEmbeddingModel(model: string): boolean {
  const name = model.toLowerCase()
  if (name.includes('rerank')) return false
  return EMBEDDING_NAME.test(name)
}

const EMBEDDING_NAME = /embed|(^|[/@_-])(bge|bce|m3e|gte|e5)[-_]|minilm|jina-clip/
