import { openAiShaped } from './openai'

/**
 * Vendors whose `/embeddings` copies OpenAI's but differs on the wire (each difference from the vendor's docs):
 *
 * - Jina refuses `encoding_format` (`extra_forbidden`; the OpenAI SDKs send it on every call) and takes text only;
 *   its own fields (`task`, `late_chunking`, `dimensions`, `normalized`, `truncate`) go on as sent, and a client that
 *   picks Jina's own `embedding_type` gets Jina's answer untouched.
 * - Mistral rejects unknown fields and calls `dimensions` `output_dimension`; `input` is text only.
 * - Floats only: DashScope (Qwen) and Volcengine Ark (Doubao) document `encoding_format` as "float only", Zhipu and
 *   Xinference do not take it (Xinference drops it and answers floats), Cloudflare documents none; none takes token ids.
 */
export const jinaEmbeddings = openAiShaped({ name: 'Jina', tokenIds: false, floatsOnly: true, formatField: 'embedding_type' })

export const mistralEmbeddings = openAiShaped({ name: 'Mistral', tokenIds: false, rename: { dimensions: 'output_dimension' }, drop: ['user'] })

export const floatEmbeddings = openAiShaped({ name: 'this vendor', tokenIds: false, floatsOnly: true })
