import { ChannelStatus } from '../../db/repos/channels'
import type { AppDeps } from '../../deps'
import { BadRequestError, GatewayError, NotFoundError } from '../../errors'
import { planOf } from '../../providers/coding-plans'
import type { Channel } from '../../relay/routing/channel'
import { splitKeys } from '../../relay/routing/channel'
import { fetchUpstreamModels, UpstreamCallError, type ChannelTestResult } from '../../relay/routing/channel-test'
import { assertKeyTargetsAllowed, assertTargetAllowed, channelPatch, checkKeys, normalizeKeys } from './input'
import type { FetchModelsBody } from './schemas'

const hostOf = (url: string) => URL.canParse(url) ? new URL(url).host : ''

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
  await deps.routing.channels.recordTest(id, result) // stored before the answer: the console reads it next
  return result
}

/** The upstream's own model list; upstream failures become 502 with the upstream's message. */
export async function listUpstreamModels(deps: AppDeps, id: number): Promise<string[]> {
  return modelsOf(deps, await cachedChannel(deps, id))
}

/**
 * new-api's POST /api/channel/fetch_models: the model list for a channel not saved yet, from the typed type, key
 * and base URL (with `id`, an edited channel's stored keys when none is typed). The same checks as a save: the
 * base URL and the key's addresses through the outbound rules, the key's format; the call goes through the guard.
 */
export async function previewUpstreamModels(deps: AppDeps, body: FetchModelsBody): Promise<string[]> {
  const { patch, provider } = channelPatch({ type: body.type, base_url: body.base_url ?? '', other: body.other ?? undefined })
  const typed = normalizeKeys(body.key ?? '')
  const keyText = typed || (body.id ? ((await cachedChannel(deps, body.id)).keys.join('\n')) : '')
  if (!keyText && provider.keyRequired) throw new BadRequestError(`key is required for ${provider.name} channels`, 'key')
  await assertTargetAllowed(deps.outbound, patch.baseUrl ?? '', provider)
  if (typed) {
    await checkKeys(provider, typed)
    await assertKeyTargetsAllowed(deps.outbound, provider, typed)
  }
  const channel: Channel = {
    id: body.id ?? 0,
    type: body.type,
    provider,
    name: '',
    keys: splitKeys(keyText),
    baseUrl: patch.baseUrl || provider.defaultBaseUrl,
    models: [],
    groups: [],
    priority: 0,
    weight: 0,
    tag: '',
    status: ChannelStatus.enabled,
    modelMapping: {},
    autoBan: false,
    testModel: '',
    other: patch.other ?? '',
    setting: {},
    overrides: {},
  }
  return modelsOf(deps, channel)
}

async function modelsOf(deps: AppDeps, channel: Channel): Promise<string[]> {
  const plan = planOf(channel.provider, channel.baseUrl)
  const { name, models } = plan ?? channel.provider
  if (!(plan ? plan.modelListPath : channel.provider.modelList)) {
    const known = models.length > 0 ? `; the ones Tollgate knows: ${models.join(', ')}` : ''
    throw new GatewayError(400, 'no_model_list', `${name} has no model list endpoint: enter the channel's models by hand${known}`, undefined, undefined, { code: 'no_model_list' })
  }
  try {
    return await fetchUpstreamModels(channel, deps.routing.upstreamFetch)
  } catch (error) {
    if (error instanceof UpstreamCallError) {
      const where = error.request ? ` ${error.request.method} ${error.request.url}` : ''
      const facts = { code: error.code, status: error.status, method: error.request?.method ?? '', url: error.request?.url ?? '', host: hostOf(channel.baseUrl) }
      throw new GatewayError(502, error.code, `fetching models failed${where}${error.status ? ` (upstream ${error.status})` : ''}: ${error.message}`, undefined, undefined, facts)
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
