import { ChannelStatus } from '../../db/repos/channels'
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
  await deps.routing.channels.recordTest(id, result.timeMs) // stored before the answer: the console reads it next
  return result
}

/** The upstream's own model list; upstream failures become 502 with the upstream's message. */
export async function listUpstreamModels(deps: AppDeps, id: number): Promise<string[]> {
  const channel = await cachedChannel(deps, id)
  const { modelList, name, models } = channel.provider
  if (!modelList) {
    const known = models.length > 0 ? `; the ones Tollgate knows: ${models.join(', ')}` : ''
    throw new BadRequestError(`${name} has no model list endpoint: enter the channel's models by hand${known}`)
  }
  try {
    return await fetchUpstreamModels(channel, deps.routing.upstreamFetch)
  } catch (error) {
    if (error instanceof UpstreamCallError) {
      throw new GatewayError(502, 'upstream_error', `fetching models failed${error.status ? ` (upstream ${error.status})` : ''}: ${error.message}`)
    }
    throw error
  }
}

/** One channel's line in `GET /api/channel/test`: new-api's fields, `time` in seconds as the single test's. */
export interface ChannelTestLine {
  id: number
  name: string
  success: boolean
  time: number
  time_ms: number
  message: string
}

/** Channels tested at once by `testAllChannels`: each test already runs up to eight keys in parallel. */
const CHANNELS_AT_ONCE = 4

/**
 * new-api's "test all channels": every enabled channel, `CHANNELS_AT_ONCE` at a time, each exactly as the
 * single test (every key, timings recorded, the key rotation fed, the status left alone). In id order.
 */
export async function testAllChannels(deps: AppDeps, concurrency = CHANNELS_AT_ONCE): Promise<ChannelTestLine[]> {
  await deps.routing.channels.ready
  const channels = deps.routing.channels
    .all()
    .filter((c) => c.status === ChannelStatus.enabled)
    .sort((a, b) => a.id - b.id)
  const lines: ChannelTestLine[] = []
  let next = 0
  const worker = async () => {
    for (let i = next++; i < channels.length; i = next++) {
      const { id, name } = channels[i]!
      try {
        const r = await runChannelTest(deps, id)
        lines[i] = { id, name, success: r.ok, time: r.timeMs / 1000, time_ms: r.timeMs, message: r.message }
      } catch (error) {
        // deleted while the run went on: say so, the other channels' results still count
        lines[i] = { id, name, success: false, time: 0, time_ms: 0, message: (error as Error).message }
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(concurrency, channels.length) }, worker))
  return lines
}
