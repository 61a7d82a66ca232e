import { ChannelStatus } from '../../db/repos/channels'
import type { AppDeps } from '../../deps'
import { GatewayError } from '../../errors'
import { recordManageLog } from '../../metering/manage-log'
import { listUpstreamModels } from './checks'
import { diffModels, isIgnored, MAX_STORED_MODELS, readUpstreamSettings, writeUpstreamSettings, type UpstreamSettings } from './upstream-settings'

/** Channels checked by one scheduled run at most (new-api's batch size); the ones checked longest ago go first. */
const UPSTREAM_CHECK_MAX_CHANNELS = 100

type CheckDeps = Pick<AppDeps, 'repos' | 'routing' | 'options' | 'outbound' | 'metering' | 'ops' | 'config' | 'clock'>

export interface CheckOutcome {
  add_models: string[]
  remove_models: string[]
  last_check_time: number
  auto_added_models: string[]
}

/**
 * Check one channel against its upstream's list and store what was found in its `settings` (new-api's
 * checkAndPersistChannelUpstreamModelUpdates): ignored models are never proposed; with `autoApply` and the channel's
 * auto-sync on, new models are added (never removed) as a channel edit with a manage-log row. A failed fetch still
 * records the check time (so a dead upstream is not hammered) and is rethrown.
 */
export async function checkAndStore(deps: CheckDeps, id: number, autoApply: boolean): Promise<CheckOutcome> {
  const row = await deps.repos.channels.findById(id)
  if (!row) throw new GatewayError(404, 'not_found', `channel ${id} not found`)
  const settings = readUpstreamSettings(row.settings)
  const now = Math.floor(deps.clock.now() / 1000)
  let upstream: string[]
  try {
    upstream = await listUpstreamModels(deps as AppDeps, id)
  } catch (error) {
    await deps.routing.channels.update(id, { settings: writeUpstreamSettings(row.settings, { upstream_model_update_last_check_time: now }) })
    throw error
  }
  const channel = deps.routing.channels.get(id)
  const models = channel?.models ?? []
  const diff = diffModels(models, upstream, channel?.modelMapping ?? {})
  const add = diff.add.filter((m) => !isIgnored(m, settings.upstream_model_update_ignored_models)).slice(0, MAX_STORED_MODELS)
  const autoAdd = autoApply && settings.upstream_model_update_auto_sync_enabled ? add : []
  const found: Partial<UpstreamSettings> = {
    upstream_model_update_last_check_time: now,
    upstream_model_update_last_detected_models: autoAdd.length > 0 ? [] : add,
    upstream_model_update_last_removed_models: diff.remove.slice(0, MAX_STORED_MODELS),
  }
  const patch = { settings: writeUpstreamSettings(row.settings, found), ...(autoAdd.length > 0 ? { models: [...models, ...autoAdd].join(',') } : {}) }
  await deps.routing.channels.update(id, patch)
  if (autoAdd.length > 0) {
    recordManageLog(deps, {
      actor: { id: 0, username: 'system' },
      content: `channel: upstream model auto-sync added ${autoAdd.length} model${autoAdd.length === 1 ? '' : 's'} to channel #${id}`,
      details: { id, added_models: autoAdd.slice(0, 20), added_count: autoAdd.length },
    })
  }
  return { add_models: found.upstream_model_update_last_detected_models!, remove_models: found.upstream_model_update_last_removed_models!, last_check_time: now, auto_added_models: autoAdd }
}

export interface ScheduledRun {
  checked: number[]
  failed: number[]
  auto_added: number
}

/**
 * One scheduled run (new-api's runChannelUpstreamModelUpdateTaskOnce with force off, auto-apply on): the enabled
 * channels with the check switched on, skipping those checked within the minimum interval, at most
 * UPSTREAM_CHECK_MAX_CHANNELS of them, one at a time.
 */
export async function runScheduledUpstreamCheck(deps: CheckDeps, maxChannels = UPSTREAM_CHECK_MAX_CHANNELS): Promise<ScheduledRun> {
  const now = Math.floor(deps.clock.now() / 1000)
  const minInterval = deps.config.upstreamModelCheckMinIntervalSeconds
  const due = (await deps.repos.channels.all())
    .filter((c) => c.status === ChannelStatus.enabled)
    .map((c) => ({ id: c.id, settings: readUpstreamSettings(c.settings) }))
    .filter(({ settings: s }) => s.upstream_model_update_check_enabled && !(s.upstream_model_update_last_check_time > 0 && now - s.upstream_model_update_last_check_time < minInterval))
    .sort((a, b) => a.settings.upstream_model_update_last_check_time - b.settings.upstream_model_update_last_check_time || a.id - b.id)
    .slice(0, maxChannels)
  const run: ScheduledRun = { checked: [], failed: [], auto_added: 0 }
  for (const { id } of due) {
    run.checked.push(id)
    try {
      run.auto_added += (await checkAndStore(deps, id, true)).auto_added_models.length
    } catch (error) {
      run.failed.push(id)
      deps.ops.log.warn({ channel_id: id, error: (error as Error).message }, 'upstream model check failed')
    }
  }
  return run
}
