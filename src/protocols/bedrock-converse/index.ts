/**
 * Bedrock's Converse API as an upstream (client side only: no client speaks Converse to the gateway). Streams come
 * in the AWS event-stream framing (`../framing/aws-event-stream.ts`), whose messages map to SSE-shaped events
 * that `createStreamDecoder()` and `createUsageTap()` read.
 */
import type { Protocol } from '../types.ts'
import { decodeResponse } from './decode-response.ts'
import { ConverseStreamDecoder } from './decode-stream.ts'
import { encodeRequest } from './encode-request.ts'
import { parseError } from './errors.ts'
import { P } from './maps.ts'
import { ConverseUsageTap, usageFromBody } from './usage-tap.ts'

export type ConverseClient = Pick<Protocol, 'encodeRequest' | 'decodeResponse' | 'createStreamDecoder' | 'parseError' | 'createUsageTap' | 'usageFromBody'> & {
  id: typeof P
  /** paths under the runtime root; `{model}` is the URL-encoded model id (`%3A` for its `:`) */
  paths: { request: string; stream: string }
  /** the stream's framing (content type `application/vnd.amazon.eventstream`) */
  framing: 'aws-event-stream'
}

export const bedrockConverse: ConverseClient = {
  id: P,
  paths: { request: '/model/{model}/converse', stream: '/model/{model}/converse-stream' },
  framing: 'aws-event-stream',
  encodeRequest,
  decodeResponse,
  createStreamDecoder: () => new ConverseStreamDecoder(),
  parseError,
  createUsageTap: () => new ConverseUsageTap(),
  usageFromBody,
}

export { modelFamily } from './maps.ts'
