/**
 * Tencent Hunyuan (new-api type 23) as an upstream: `ChatCompletions` of Tencent Cloud API 3.0, signed with
 * TC3-HMAC-SHA256 by the provider's connector (providers/signing/tc3.ts). Client side only.
 */
import type { UpstreamProtocol } from '../types.ts'
import { bodyError, decodeResponse, HunyuanStreamDecoder, HunyuanUsageTap, parseError, usageFromBody } from './decode.ts'
import { encodeRequest } from './encode-request.ts'

export const hunyuan: UpstreamProtocol & { id: 'hunyuan' } = {
  id: 'hunyuan',
  encodeRequest,
  decodeResponse,
  bodyError,
  createStreamDecoder: () => new HunyuanStreamDecoder(),
  parseError,
  createUsageTap: () => new HunyuanUsageTap(),
  usageFromBody,
  probeBody: (model) => ({ Model: model, Messages: [{ Role: 'user', Content: 'hi' }], Stream: false }),
}
