/**
 * Dify (new-api type 37) as an upstream: an app's chat (`/v1/chat-messages`, blocking or streaming), client side
 * only. Dify runs the app's own model and tools; the gateway sends the conversation and reads the answer.
 */
import type { UpstreamProtocol } from '../types.ts'
import { decodeResponse, DifyStreamDecoder, DifyUsageTap, parseError, usageFromBody } from './decode.ts'
import { encodeRequest } from './encode-request.ts'

export const dify: Omit<UpstreamProtocol, 'id'> & { id: 'dify' } = {
  id: 'dify',
  encodeRequest: (req) => encodeRequest(req),
  decodeResponse,
  createStreamDecoder: () => new DifyStreamDecoder(),
  parseError,
  createUsageTap: () => new DifyUsageTap(),
  usageFromBody,
  probeBody: () => ({ inputs: {}, query: 'USER: \nhi\n', response_mode: 'blocking', user: 'tollgate-test', auto_generate_name: false }),
}
