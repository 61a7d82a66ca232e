/**
 * iFlytek Spark (new-api type 18) as an upstream: its WebSocket chat, client side only. One request frame goes out;
 * the answer comes back in frames, which the connection (providers/spark/socket-call.ts) hands on as SSE events,
 * one per frame: Spark answers as a stream only, and a non-stream client gets it collected.
 */
import type { UpstreamProtocol } from '../types.ts'
import { decodeResponse, parseError, SparkStreamDecoder, SparkUsageTap, usageFromBody } from './decode.ts'
import { encodeRequest } from './encode-request.ts'

export const spark: Omit<UpstreamProtocol, 'id'> & { id: 'spark' } = {
  id: 'spark',
  streamsOnly: true,
  encodeRequest,
  decodeResponse,
  createStreamDecoder: () => new SparkStreamDecoder(),
  parseError,
  createUsageTap: () => new SparkUsageTap(),
  usageFromBody,
  probeBody: () => ({ header: { app_id: '' }, parameter: { chat: { domain: '', max_tokens: 1 } }, payload: { message: { text: [{ role: 'user', content: 'hi' }] } } }),
}
