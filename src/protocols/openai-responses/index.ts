import type { Protocol } from '../types.ts'
import { priceChoices } from './price-choices.ts'
import { passthroughPatch, probeBody } from './passthrough.ts'
import { decodeRequest } from './decode-request.ts'
import { decodeResponse } from './decode-response.ts'
import { ResponsesStreamDecoder } from './decode-stream.ts'
import { encodeRequest } from './encode-request.ts'
import { encodeResponse } from './encode-response.ts'
import { ResponsesStreamEncoder } from './encode-stream.ts'
import { parseError, renderError, renderStreamError } from './errors.ts'
import { ResponsesUsageTap, usageFromBody } from './usage-tap.ts'
import { ResponsesRequest } from './wire.ts'

export const openaiResponses: Protocol = {
  id: 'openai-responses',
  passthroughPatch,
  probeBody,
  requestSchema: ResponsesRequest,
  scanWords: { media: ['input_image', 'input_file', 'item_reference'] },
  // instructions, message texts, tool outputs and media data (image URLs only when they are data URLs)
  splicePaths: {
    text: [
      'input', 'instructions', 'instructions.*.content.*.text', 'input.*.content', 'input.*.content.*.text', 'input.*.content.*.file_data',
      'input.*.output', 'input.*.output.*.text', 'input.*.output.*.file_data',
    ],
    dataUrl: ['input.*.content.*.image_url', 'input.*.output.*.image_url'],
  },
  priceChoices,
  decodeRequest,
  encodeRequest,
  decodeResponse,
  encodeResponse: (res, req) => encodeResponse(res, req),
  createStreamDecoder: () => new ResponsesStreamDecoder(),
  createStreamEncoder: (opts) => new ResponsesStreamEncoder(opts),
  renderError,
  renderStreamError,
  parseError,
  createUsageTap: () => new ResponsesUsageTap(),
  usageFromBody,
}
