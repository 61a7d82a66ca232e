import { createTokenSource } from './signing/google-access-token'
import { importPrivateKey, parseServiceAccount, serviceAccountOf } from './signing/google-service-account'
import type { Provider } from './types'
import { listVertexModels, parseVertexModels } from './vertex/models'
import { vertexPublisher, vertexRegion, vertexUrl } from './vertex/urls'

/** One token source for every Vertex channel: tokens cached per service account until 5 minutes before expiry. */
const tokens = createTokenSource()

/**
 * Google Vertex AI (new-api type 41). The key is a service account JSON; each call carries an OAuth access token
 * minted from it (RS256 JWT to its token_uri, cached). Gemini models speak generateContent; Claude models go
 * through rawPredict / streamRawPredict with Anthropic's body (Claude Code passes through). The region comes from
 * the channel's `other` (a region, or `{"default": …, "<model>": …}` as new-api stores it; default `global`), the
 * project from the service account. A base URL replaces the Google host (a proxy). Imagen models make images through
 * `:predict` (`/v1/images/generations`, the Gemini channel's dialect).
 */
export const vertex: Provider = {
  type: 41,
  id: 'vertex',
  name: 'Google Vertex AI',
  protocols: ['gemini', 'vertex-anthropic'],
  endpoints: { gemini: { path: '' }, 'vertex-anthropic': { path: '' } },
  // the path is made per call by the connector (prepareOperation)
  operations: { 'image-generations': { path: '', dialect: 'imagen' } },
  protocolsFor: (model) => (vertexPublisher(model) === 'anthropic' ? ['vertex-anthropic'] : ['gemini']),
  connector: {
    async prepare(call) {
      const account = serviceAccountOf(call.key)
      const region = vertexRegion(call.other, call.clientModel, call.model)
      const url = vertexUrl({ project: account.projectId, region, model: call.model, operation: call.stream ? 'stream' : 'generate', baseUrl: call.baseUrl || undefined })
      const token = await tokens.accessTokenFor(account, call.fetch)
      return { url, headers: { ...call.headers, authorization: `Bearer ${token}` } }
    },
    // Imagen's `:predict` (the only operation Vertex channels serve), with the same token and region as chat
    async prepareOperation(call) {
      const account = serviceAccountOf(call.key)
      const region = vertexRegion(call.other, call.clientModel, call.model)
      const url = vertexUrl({ project: account.projectId, region, model: call.model, operation: 'predict', baseUrl: call.baseUrl || undefined })
      const token = await tokens.accessTokenFor(account, call.fetch)
      return { url, headers: { authorization: `Bearer ${token}` } }
    },
    // a revoked or expired token: minted again on the next call instead of reused until its cached expiry
    rejected(call, status) {
      if (status !== 401) return false
      tokens.invalidate(call.key)
      return true
    },
  },
  defaultBaseUrl: '',
  auth: 'bearer',
  keyRequired: true,
  // Model Garden's publisher lists (Google's and Anthropic's), with the account's token (vertex/models.ts)
  modelList: {
    path: '/v1beta1/publishers/google/models',
    parse: parseVertexModels,
    list: (call) => listVertexModels(call, { get: () => tokens.accessTokenFor(call.key, call.fetch), drop: () => tokens.invalidate(call.key) }),
  },
  testModel: 'gemini-2.5-flash',
  models: ['gemini-2.5-pro', 'gemini-2.5-flash', 'gemini-2.5-flash-lite', 'claude-sonnet-4-5@20250929', 'claude-haiku-4-5@20251001', 'claude-opus-4-1@20250805', 'imagen-4.0-generate-001'],
  quirks: {},
  otherField: { meaning: 'region (us-east5, global …) or {"default": "<region>", "<model>": "<region>"}', required: false, addressed: true },
  // the whole key file, and its private key importable for RS256
  checkKey: async (key) => void (await importPrivateKey(parseServiceAccount(key))),
  checkOther: (other) => void vertexRegion(other),
  keyTargets: (key) => [serviceAccountOf(key).tokenUri],
  note: 'Key: the service account JSON. Claude models use rawPredict (Claude Code passes through), Gemini models generateContent, Imagen models predict (/v1/images/generations).',
}
