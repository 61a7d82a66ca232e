import type { Protocol } from '../types.ts'
import { errorsOn } from './routes.ts'
import { streamFraming } from './json-array.ts'
import { probeBody } from './passthrough.ts'
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
  // texts and inline data (function responses are objects, stringified whole when not one plain field)
  splicePaths: { text: ['systemInstruction.parts.*.text', 'contents.*.parts.*.text', 'contents.*.parts.*.inlineData.data'] },
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

export { GeminiRequest } from './wire.ts'
export { CallIds } from './decode-request.ts'
