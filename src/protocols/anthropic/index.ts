import type { Protocol } from '../types.ts'
import { priceChoices } from './price-choices.ts'
import { errorsOn } from './routes.ts'
import { passthroughPatch, probeBody } from './passthrough.ts'
import { decodeRequest } from './decode-request.ts'
import { decodeResponse } from './decode-response.ts'
import { AnthropicStreamDecoder } from './decode-stream.ts'
import { encodeRequest } from './encode-request.ts'
import { encodeResponse } from './encode-response.ts'
import { AnthropicStreamEncoder } from './encode-stream.ts'
import { parseError, renderError, renderStreamError } from './errors.ts'
import { AnthropicUsageTap, usageFromBody } from './usage-tap.ts'
import { AnthropicRequest } from './wire.ts'

export const anthropic: Protocol = {
  errorsOn,
  id: 'anthropic',
  passthroughPatch,
  probeBody,
  requestSchema: AnthropicRequest,
  // image and document blocks; thinking blocks, for the unsigned ones passthrough drops
  scanWords: { media: ['image', 'document'], patchTypes: ['thinking'] },
  // texts, tool results (a string or text blocks) and base64 sources, at the top level and inside tool results
  splicePaths: {
    text: [
      'system', 'system.*.text', 'messages.*.content', 'messages.*.content.*.text', 'messages.*.content.*.content',
      'messages.*.content.*.content.*.text', 'messages.*.content.*.source.data', 'messages.*.content.*.content.*.source.data',
    ],
  },
  priceChoices,
  decodeRequest,
  encodeRequest,
  decodeResponse,
  encodeResponse: (res, req) => encodeResponse(res, req),
  createStreamDecoder: () => new AnthropicStreamDecoder(),
  createStreamEncoder: (opts) => new AnthropicStreamEncoder(opts),
  renderError,
  renderStreamError,
  parseError,
  createUsageTap: () => new AnthropicUsageTap(),
  usageFromBody,
}
