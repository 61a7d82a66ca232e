import type { AppDeps } from '../../deps'
import { BadRequestError, GatewayError, NotFoundError } from '../../errors'
import type { Channel } from '../../relay/routing/channel'
import { fetchUpstreamModels, UpstreamCallError, type ChannelTestResult } from '../../relay/routing/channel-test'

async function cachedChannel(deps: AppDeps, id: number): Promise<Channel> {
  await deps.routing.channels.ready
  const channel = deps.routing.channels.get(id)
  if (!channel) throw new NotFoundError(`channel ${id} not found`)
  return channel
}

/**
 * A real minimal request through the channel with each of its keys; records response_time (the first
 * key's) and test_time. Dead keys that work again rejoin the rotation; the status is left as it is.
 */
export async function runChannelTest(deps: AppDeps, id: number, model?: string): Promise<ChannelTestResult> {
  const channel = await cachedChannel(deps, id)
  const { result } = await deps.routing.checkChannel(channel, model)
  deps.routing.channels.recordTest(id, result.timeMs)
  return result
}

/** The upstream's own model list; upstream failures become 502 with the upstream's message. */
export async function listUpstreamModels(deps: AppDeps, id: number): Promise<string[]> {
  const channel = await cachedChannel(deps, id)
  if (!channel.provider.modelList) throw new BadRequestError(`${channel.provider.name} has no model list endpoint`)
  try {
    return await fetchUpstreamModels(channel)
  } catch (error) {
    if (error instanceof UpstreamCallError) {
      throw new GatewayError(502, 'upstream_error', `fetching models failed${error.status ? ` (upstream ${error.status})` : ''}: ${error.message}`)
    }
    throw error
  }
}
