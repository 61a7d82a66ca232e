import { upstreamRequest, type UpstreamTarget } from '../../providers/upstream'
import type { Channel } from '../routing'
import { mapModel } from '../routing/model-mapping'

/**
 * The URL and headers of a call under a channel's Responses endpoint: `{endpoint}{suffix}` (`/resp_…`,
 * `/resp_…/input_items`, `/compact`), the endpoint's own query (Azure's api-version) kept and the client's added.
 * Undefined when the channel's provider does not speak the Responses API.
 */
export function responsesTarget(channel: Channel, model: string, key: string, suffix: string, clientQuery = ''): UpstreamTarget | undefined {
  if (channel.provider.connector || !channel.provider.protocols.includes('openai-responses')) return undefined
  const target = upstreamRequest(channel.provider, channel.baseUrl, 'openai-responses', mapModel(channel.modelMapping, model), false, key, { other: channel.other })
  const url = new URL(target.url)
  url.pathname = url.pathname.replace(/\/+$/, '') + suffix
  for (const [name, value] of new URLSearchParams(clientQuery)) url.searchParams.append(name, value)
  return { url: url.toString(), headers: target.headers }
}
