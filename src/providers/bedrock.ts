import { modelFamily } from '../protocols/bedrock-converse'
import { listBedrockModels, parseBedrockModels } from './bedrock-models'
import { bedrockRuntimeUrl, parseBedrockKey, signBedrockRequest } from './signing/sigv4'
import type { Provider } from './types'
import { joinUrl } from './url'

const ENDPOINTS = {
  'bedrock-converse': { path: '/model/{model}/converse', streamPath: '/model/{model}/converse-stream' },
  'bedrock-invoke': { path: '/model/{model}/invoke', streamPath: '/model/{model}/invoke-with-response-stream' },
} as const

/**
 * AWS Bedrock (new-api type 33). Claude models go through `invoke` for every client, so Anthropic's own body
 * (thinking signatures, cache control, betas) reaches the model and Claude Code passes through; every other family
 * through Converse. The key is new-api's `ACCESS_KEY_ID|SECRET_ACCESS_KEY|REGION` (SigV4-signed per call) or
 * `API_KEY|REGION` (a Bedrock API key, sent as Bearer). The runtime host follows the key's region unless the
 * channel sets a base URL (a VPC endpoint or a proxy).
 */
export const bedrock: Provider = {
  type: 33,
  id: 'bedrock',
  name: 'AWS Bedrock',
  protocols: ['bedrock-converse', 'bedrock-invoke'],
  endpoints: ENDPOINTS,
  protocolsFor: (model) => (modelFamily(model) === 'anthropic' ? ['bedrock-invoke'] : ['bedrock-converse']),
  connector: {
    async prepare(call) {
      const key = parseBedrockKey(call.key)
      const endpoint = ENDPOINTS[call.protocol as keyof typeof ENDPOINTS]
      // model ids hold `:` (…-v1:0), percent-encoded in the path as Bedrock expects
      const path = (call.stream ? endpoint.streamPath : endpoint.path).replace('{model}', encodeURIComponent(call.model))
      const url = joinUrl(call.baseUrl || bedrockRuntimeUrl(key.region), path)
      const headers = await signBedrockRequest({ method: 'POST', url, headers: call.headers, body: call.body }, key)
      return { url, headers }
    },
  },
  defaultBaseUrl: '',
  auth: 'bearer',
  keyRequired: true,
  // ListFoundationModels and ListInferenceProfiles on the control-plane host, signed (bedrock-models.ts)
  modelList: { path: '/foundation-models?byOutputModality=TEXT', parse: parseBedrockModels, list: listBedrockModels },
  testModel: 'us.anthropic.claude-haiku-4-5-20251001-v1:0',
  models: [
    'us.anthropic.claude-sonnet-4-5-20250929-v1:0',
    'us.anthropic.claude-haiku-4-5-20251001-v1:0',
    'us.anthropic.claude-opus-4-1-20250805-v1:0',
    'us.amazon.nova-pro-v1:0',
    'us.amazon.nova-lite-v1:0',
    'us.meta.llama4-maverick-17b-instruct-v1:0',
    'openai.gpt-oss-120b-1:0',
  ],
  quirks: {},
  checkKey: (key) => void parseBedrockKey(key),
  note: 'Key: ACCESS_KEY_ID|SECRET_ACCESS_KEY|REGION (or API_KEY|REGION). Claude models use invoke (Claude Code passes through), the others Converse.',
}
