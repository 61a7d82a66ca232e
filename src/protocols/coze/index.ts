/**
 * Coze (new-api type 49) as an upstream: a bot's chat (`/v3/chat`, API v3), client side only, always streamed.
 * The bot runs its own model, persona and plugins; the gateway sends the conversation and reads the answer.
 */
import type { UpstreamProtocol } from '../types.ts'
import { CozeStreamDecoder, CozeUsageTap, decodeResponse, parseError, usageFromBody } from './decode.ts'
import { encodeRequest } from './encode-request.ts'

export const coze: Omit<UpstreamProtocol, 'id'> & { id: 'coze' } = {
  id: 'coze',
  streamsOnly: true,
  encodeRequest,
  decodeResponse,
  createStreamDecoder: () => new CozeStreamDecoder(),
  parseError,
  createUsageTap: () => new CozeUsageTap(),
  usageFromBody,
  probeBody: () => ({ bot_id: '', user_id: 'tollgate-test', additional_messages: [{ role: 'user', type: 'question', content: 'hi', content_type: 'text' }], stream: true, auto_save_history: true }),
}
