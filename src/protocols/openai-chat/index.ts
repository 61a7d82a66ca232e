import type { Protocol } from '../types.ts'
import { priceChoices } from './price-choices.ts'
import { errorsOn } from './routes.ts'
import { passthroughPatch, applyQuirks, probeBody } from './passthrough.ts'
import { decodeRequest } from './decode-request.ts'
import { decodeResponse } from './decode-response.ts'
import { ChatStreamDecoder } from './decode-stream.ts'
import { encodeRequest } from './encode-request.ts'
import { encodeResponse } from './encode-response.ts'
import { ChatStreamEncoder } from './encode-stream.ts'
import { parseError, renderError, renderStreamError } from './errors.ts'
import { ChatUsageTap, usageFromBody } from './usage-tap.ts'
import { ChatRequest } from './wire.ts'

export const openaiChat: Protocol = {
  errorsOn,
  id: 'openai-chat',
  passthroughPatch,
  applyQuirks,
  probeBody,
  requestSchema: ChatRequest,
  scanWords: { media: ['image_url', 'file', 'input_audio'] },
  // message texts and media data (image URLs only when they are data URLs: other URLs are read whole)
  splicePaths: {
    text: ['messages.*.content', 'messages.*.content.*.text', 'messages.*.content.*.file.file_data', 'messages.*.content.*.input_audio.data'],
    dataUrl: ['messages.*.content.*.image_url', 'messages.*.content.*.image_url.url'],
  },
  priceChoices,
  decodeRequest,
  encodeRequest,
  decodeResponse,
  encodeResponse: (res, req) => encodeResponse(res, req),
  createStreamDecoder: () => new ChatStreamDecoder(),
  createStreamEncoder: (opts) => new ChatStreamEncoder(opts),
  renderError,
  renderStreamError,
  parseError,
  createUsageTap: () => new ChatUsageTap(),
  usageFromBody,
}
