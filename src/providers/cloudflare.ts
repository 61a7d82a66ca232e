import { parseCloudflareModels } from './model-lists'
import { openAiCompatible } from './openai-compatible'

const ACCOUNT_URL = /^(https?:\/\/[^/]+(?:\/.*?)?)\/client\/v4\/accounts\/([^/]+)(?:\/ai(?:\/v1)?)?$/

/**
 * Cloudflare Workers AI, OpenAI-compatible under `/client/v4/accounts/{account}/ai/v1` with an API token as Bearer.
 * The account id is the channel's `other`, as new-api stores it; a base URL that carries it
 * (`https://api.cloudflare.com/client/v4/accounts/<id>/ai/v1`) is split into root and `other` when the channel is saved.
 */
export const cloudflare = openAiCompatible({
  type: 39,
  id: 'cloudflare',
  name: 'Cloudflare Workers AI',
  defaultBaseUrl: 'https://api.cloudflare.com',
  chatPath: '/client/v4/accounts/{apiVersion}/ai/v1/chat/completions',
  modelList: { path: '/client/v4/accounts/{apiVersion}/ai/models/search?task=Text%20Generation&per_page=1000', protocol: 'openai-chat', parse: parseCloudflareModels },
  testModel: '@cf/meta/llama-3.1-8b-instruct',
  models: ['@cf/openai/gpt-oss-120b', '@cf/openai/gpt-oss-20b', '@cf/meta/llama-3.3-70b-instruct-fp8-fast', '@cf/meta/llama-3.1-8b-instruct', '@cf/qwen/qwen2.5-coder-32b-instruct'],
  otherField: { meaning: 'the Cloudflare account id', required: true, addressed: true },
  // embeddings at …/ai/v1/embeddings (e.g. @cf/baai/bge-m3), floats only
  dialects: { embeddings: 'floats' },
  foldBaseUrl(baseUrl) {
    const match = ACCOUNT_URL.exec(baseUrl)
    return match ? { baseUrl: match[1]!, other: decodeURIComponent(match[2]!) } : undefined
  },
})
