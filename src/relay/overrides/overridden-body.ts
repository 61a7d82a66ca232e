import type { UpstreamProtocolId } from '../../protocols/types'
import { UpstreamFailure } from '../failure'
import { payloadText, type UpstreamBody } from '../chat/upstream-body'
import type { ChannelOverrides } from './channel-overrides'
import { applyParamOverride, OverrideBlocked } from './param-override'
import { applySystemPrompt } from './system-prompt'

/**
 * The body of one attempt with the fields its type fills from the channel, its system prompt and param override applied (in new-api's order: the
 * prompt, then the operations), as the upstream's protocol writes it. Only called for a channel that has them:
 * every other body goes on byte for byte.
 */
export function overriddenBody(body: UpstreamBody, overrides: ChannelOverrides, protocol: UpstreamProtocolId): UpstreamBody {
  const json = JSON.parse(payloadText(body)) as Record<string, unknown>
  if (overrides.bodyFields) Object.assign(json, overrides.bodyFields)
  if (overrides.systemPrompt) applySystemPrompt(json, protocol, overrides.systemPrompt)
  if (overrides.params) {
    try {
      applyParamOverride(json, overrides.params)
    } catch (error) {
      // a block is this channel refusing the request: the client's request is what it is, so no other channel is tried
      if (error instanceof OverrideBlocked) throw new UpstreamFailure(400, error.message, false)
      throw error
    }
  }
  return { ...body, payload: JSON.stringify(json), places: undefined }
}
