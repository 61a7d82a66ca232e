import { ChannelStatus } from '../../db/repos/channels'
import type { AppDeps } from '../../deps'
import { GatewayError } from '../../errors'
import type { UpstreamApplyBody } from './schemas'
import { editChannel } from './service'
import { checkAndStore } from './upstream-schedule'
import { readUpstreamSettings, writeUpstreamSettings } from './upstream-settings'

/** new-api's detect result for one channel (`/api/channel/upstream_updates/detect`). */
export interface UpstreamChanges {
  channel_id: number
  channel_name: string
  /** on the upstream's list, not on the channel (nor the target of one of its model mappings) */
  add_models: string[]
  /** on the channel, gone from the upstream's list (a mapping's source is an alias: never listed) */
  remove_models: string[]
  last_check_time: number
}

/** A channel whose list could not be fetched during a scan: named with the error, the other channels still count. */
export interface UpstreamFailure {
  channel_id: number
  channel_name: string
  code: string
  message: string
}

/** Channels scanned at once by `detectAllUpstreamChanges`. */
const CHANNELS_AT_ONCE = 4

const unique = (names: string[]) => [...new Set(names.map((n) => n.trim()).filter(Boolean))]

async function channelOf(deps: AppDeps, id: number) {
  await deps.routing.channels.ready
  const channel = deps.routing.channels.get(id)
  if (!channel) throw new GatewayError(404, 'not_found', `channel ${id} not found`)
  return channel
}

/**
 * One channel's pending changes, checked now and stored on the channel (its `settings`), never applied: the manual
 * detect stages changes for review even when the channel's auto-sync is on. The upstream's failure is a 502 naming
 * the channel (never a 500).
 */
export async function detectUpstreamChanges(deps: AppDeps, id: number): Promise<UpstreamChanges> {
  const channel = await channelOf(deps, id)
  try {
    const found = await checkAndStore(deps, id, false)
    return { channel_id: id, channel_name: channel.name, add_models: found.add_models, remove_models: found.remove_models, last_check_time: found.last_check_time }
  } catch (error) {
    if (!(error instanceof GatewayError)) throw error
    const message = `channel #${id} (${channel.name}): ${error.message}`
    throw new GatewayError(error.status, error.code, message, error.param, undefined, { ...error.data, code: error.code, channel_id: id, channel_name: channel.name })
  }
}

/** Every enabled channel, a few at a time, in id order: the changed ones listed, the failed ones named with their error. */
export async function detectAllUpstreamChanges(deps: AppDeps): Promise<{ items: UpstreamChanges[]; failed: UpstreamFailure[]; count: number }> {
  await deps.routing.channels.ready
  const channels = deps.routing.channels.all().filter((c) => c.status === ChannelStatus.enabled).sort((a, b) => a.id - b.id)
  const results: (UpstreamChanges | UpstreamFailure)[] = []
  let next = 0
  const worker = async () => {
    for (let i = next++; i < channels.length; i = next++) {
      const { id, name } = channels[i]!
      try {
        results[i] = await detectUpstreamChanges(deps, id)
      } catch (error) {
        const code = error instanceof GatewayError ? error.code : 'fetch_failed'
        results[i] = { channel_id: id, channel_name: name, code, message: (error as Error).message }
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(CHANNELS_AT_ONCE, channels.length) }, worker))
  const items = results.filter((r): r is UpstreamChanges => 'add_models' in r && (r.add_models.length > 0 || r.remove_models.length > 0))
  const failed = results.filter((r): r is UpstreamFailure => 'code' in r)
  return { items, failed, count: items.length }
}

/**
 * Apply chosen changes: the upstream's list is fetched again and each chosen model must still be a pending change
 * (an add on the list, a remove gone from it), so a stale console cannot add a model the upstream dropped. Written as
 * a channel edit of `models`; add wins when a model is in both lists, as in new-api. `ignore_models` (pending adds)
 * join the channel's ignored list and are never proposed again; an added model leaves that list.
 */
export async function applyUpstreamChanges(deps: AppDeps, body: UpstreamApplyBody) {
  const add = unique(body.add_models ?? [])
  const remove = unique(body.remove_models ?? []).filter((m) => !add.includes(m))
  const ignore = unique(body.ignore_models ?? []).filter((m) => !add.includes(m))
  if (add.length === 0 && remove.length === 0 && ignore.length === 0) {
    throw new GatewayError(400, 'nothing_to_apply', 'choose at least one model in add_models, remove_models or ignore_models', 'add_models', undefined, { code: 'nothing_to_apply' })
  }
  const pending = await detectUpstreamChanges(deps, body.id)
  const stale = [...add.filter((m) => !pending.add_models.includes(m)), ...ignore.filter((m) => !pending.add_models.includes(m)), ...remove.filter((m) => !pending.remove_models.includes(m))]
  if (stale.length > 0) {
    const message = `not a pending upstream change of channel #${body.id}: ${stale.slice(0, 20).join(', ')}; detect again`
    throw new GatewayError(409, 'not_pending', message, undefined, undefined, { code: 'not_pending', models: stale.slice(0, 100) })
  }
  const current = (await channelOf(deps, body.id)).models
  const models = [...current.filter((m) => !remove.includes(m)), ...add]
  if (add.length > 0 || remove.length > 0) await editChannel(deps, { id: body.id, models }, false)
  const remaining = pending.add_models.filter((m) => !add.includes(m) && !ignore.includes(m))
  const remainingRemove = pending.remove_models.filter((m) => !remove.includes(m))
  const stored = (await deps.repos.channels.findById(body.id))?.settings ?? ''
  const ignored = unique([...readUpstreamSettings(stored).upstream_model_update_ignored_models, ...ignore]).filter((m) => !add.includes(m))
  const settings = writeUpstreamSettings(stored, {
    upstream_model_update_ignored_models: ignored,
    upstream_model_update_last_detected_models: remaining,
    upstream_model_update_last_removed_models: remainingRemove,
  })
  await deps.routing.channels.update(body.id, { settings })
  return {
    id: body.id,
    added_models: add,
    removed_models: remove,
    ignored_models: ignore,
    remaining_models: remaining,
    remaining_remove_models: remainingRemove,
    models: models.join(','),
  }
}
