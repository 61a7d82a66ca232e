import type { Protocol } from '../types.ts'
import { priceChoices } from './price-choices.ts'
import { errorsOn } from './routes.ts'
import { streamFraming } from './json-array.ts'
import { passthroughPatch, probeBody } from './passthrough.ts'
import { decodeRequest } from './decode-request.ts'
import { decodeResponse } from './decode-response.ts'
import { GeminiStreamDecoder } from './decode-stream.ts'
import { encodeRequest } from './encode-request.ts'
import { encodeResponse } from './encode-response.ts'
import { GeminiStreamEncoder } from './encode-stream.ts'
import { parseError, renderError, renderStreamError } from './errors.ts'
import { GeminiUsageTap, usageFromBody } from './usage-tap.ts'
import { GeminiRequest } from './wire.ts'

/**
 * Gemini generateContent. The model and stream flag are in the URL: the relay sets `req.model` /
 * `req.stream` after decoding (or passes `model` in the body), and picks `:generateContent` or
 * `:streamGenerateContent?alt=sse` when sending upstream; `encodeRequest` leaves both out of the body.
 */
export const gemini: Protocol = {
  errorsOn,
  streamFraming,
  id: 'gemini',
  probeBody,
  requestSchema: GeminiRequest,
  scanWords: { media: ['inlineData', 'fileData'] },
  // texts, inline data, and a function response's one plain field (Gemini CLI answers each tool with
  // `response: {output}`); a response of other shapes is stringified whole, and a cut string in it sends the body
  // down the whole path (spliced-body.ts)
  splicePaths: {
    text: [
      'systemInstruction.parts.*.text', 'contents.*.parts.*.text', 'contents.*.parts.*.inlineData.data',
      'contents.*.parts.*.functionResponse.response.output', 'contents.*.parts.*.functionResponse.response.error',
      'contents.*.parts.*.functionResponse.response.content',
    ],
  },
  priceChoices,
  passthroughPatch,
  decodeRequest,
  encodeRequest,
  decodeResponse,
  encodeResponse: (res, req) => encodeResponse(res, req),
  createStreamDecoder: () => new GeminiStreamDecoder(),
  createStreamEncoder: (opts) => new GeminiStreamEncoder(opts),
  renderError,
  renderStreamError,
  parseError,
  createUsageTap: () => new GeminiUsageTap(),
  usageFromBody,
}
