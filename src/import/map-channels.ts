import { ChannelStatus, splitList, type NewChannel } from '../db/repos/channels'
import { ChannelCreate } from '../modules/channels/schemas'
import { UserCreate } from '../modules/users/schemas'
import { providerFor, servesAnything } from '../providers/registry'
import type { Provider } from '../providers/types'
import { parseModelMapping } from '../relay/routing/model-mapping'
import { chooseBaseUrl } from './channel-bases'
import { translateType, type TypeTranslation } from './channel-types'
import { RowRules } from './api-rules'
import { checkSourceId } from './ids'
import { reportUnread, type MapContext } from './map-common'
import { MAPPED_SETTING_FIELDS, mapOverrides } from './map-overrides'
import type { SourceRow } from './read-source'
import { bool, int, jsonObject, jsonValue, text } from './values'
import { readUpstreamSettings } from '../modules/channels/upstream-settings'

export interface MappedChannel {
  sourceId: number
  /** the row without its id and key; the key is sealed (encrypted) by the caller */
  row: Omit<NewChannel, 'id' | 'key'>
  /** the keys in plain text, one per line (exactly the source's text for types Tollgate does not serve) */
  keyText: string
}

/** the rules of POST /api/channel/ */
const Fields = ChannelCreate.properties
const Count = UserCreate.properties.quota

const READ = new Set([
  'id', 'type', 'key', 'status', 'name', 'weight', 'created_time', 'test_time', 'response_time', 'base_url', 'other', 'models',
  'group', 'used_quota', 'model_mapping', 'priority', 'auto_ban', 'tag', 'setting', 'test_model', 'channel_info', 'settings',
  // overrides (map-overrides.ts)
  'param_override', 'header_override', 'status_code_mapping',
  // one-api
  'config', 'system_prompt',
])

const NOTES: Record<string, string> = {
  openai_organization: 'OpenAI-Organization header: Tollgate sends none',
  balance: "the upstream account's balance (informational): not kept",
  balance_updated_time: 'when the balance was read: not kept',
  remark: 'admin remark: no counterpart',
  other_info: "new-api's internal channel bookkeeping: not kept",
  need_reconcile: 'hourly billing reconciliation: no counterpart',
}

/**
 * Channels of new-api / one-api → Tollgate channels. A type Tollgate does not serve yet is imported disabled,
 * with its keys as they were, and named in the report. `autoDisable` is new-api's global
 * AutomaticDisableChannelEnabled: without it new-api never disabled a channel, so neither will Tollgate.
 */
export function mapChannels(ctx: MapContext, rows: SourceRow[], autoDisable: boolean): MappedChannel[] {
  const { report } = ctx
  const out: MappedChannel[] = []
  for (const row of rows) {
    report.read('channels')
    const id = int(row.id)
    const translated = translateType(ctx.flavor, int(row.type))
    const provider = providerFor(translated.type)
    const name = text(row.name).trim() || `channel ${id}`
    const issue = (field: string, note: string, value?: string) => report.issue('channels', field, note, id, value)

    const rules = new RowRules(report, 'channels', id)
    checkSourceId(rules, row.id)
    rules.value('name', name, Fields.name)
    rules.value('key', text(row.key), Fields.key)
    rules.value('base_url', text(row.base_url), Fields.base_url)
    for (const field of ['models', 'group', 'tag', 'test_model', 'other', 'model_mapping'] as const) rules.value(field, text(row[field]), Fields[field])
    const numbers = {
      priority: rules.int('priority', row.priority, Fields.priority),
      weight: rules.int('weight', row.weight, Fields.weight, { clamp: true }),
      usedQuota: rules.int('used_quota', row.used_quota, Count, { clamp: true }),
      responseTime: rules.int('response_time', row.response_time, Count, { clamp: true }),
      testTime: rules.int('test_time', row.test_time, Count, { clamp: true }),
      createdTime: rules.int('created_time', row.created_time, Count, { clamp: true }),
    }
    if (!rules.accept()) continue

    let status = int(row.status, ChannelStatus.enabled)
    if (status !== ChannelStatus.enabled && status !== ChannelStatus.manuallyDisabled && status !== ChannelStatus.autoDisabled) {
      issue('status', `status ${status} has no counterpart: imported disabled`, String(status))
      status = ChannelStatus.manuallyDisabled
    }
    if (ctx.flavor === 'one-api' && translated.type !== translated.sourceType) {
      const note = translated.preset
        ? `one-api's ${translated.sourceName} has no new-api number: Tollgate serves it as the ${translated.preset.name} preset of Custom (type 8)`
        : `one-api's type ${translated.sourceType} (${translated.sourceName}) is new-api's (and Tollgate's) type ${translated.type}`
      report.mapped('channels', 'type', { from: String(translated.sourceType), to: String(translated.type) }, note, id)
    }

    const setting: Record<string, unknown> = {}
    let keyText: string
    let baseUrl = text(row.base_url).trim()
    if (!provider) {
      // kept as they are, keys included, so the channel can be enabled once Tollgate serves the type
      keyText = text(row.key)
      if (status === ChannelStatus.enabled) status = ChannelStatus.manuallyDisabled
      setting.imported_from = { schema: ctx.flavor, type: translated.sourceType, type_name: translated.sourceName }
      report.json.unsupported_channels.push({ id, name, source_type: translated.sourceType, source_type_name: translated.sourceName, stored_type: translated.type })
      issue('type', `${translated.sourceName} is not served by Tollgate yet: imported disabled, keys kept`, `${translated.sourceType} (${translated.sourceName})`)
    } else {
      if (!servesAnything(provider)) issue('type', `${translated.sourceName} is stored, but Tollgate routes no request to it yet (it serves embeddings and rerank, which come later)`, String(translated.type))
      const keys = keyList(ctx, row, id)
      keyText = keys.keys.join('\n')
      if (keys.allDisabled && status === ChannelStatus.enabled) status = ChannelStatus.autoDisabled
      const base = channelBaseUrl(ctx, row, id, translated, provider, setting)
      baseUrl = base.baseUrl
      // manually, not auto-disabled: the probe would otherwise re-test (and re-enable) a channel that cannot work as it is
      if (base.disable) status = ChannelStatus.manuallyDisabled
      if (!carriedSetting(ctx, row, id, provider, setting)) status = ChannelStatus.manuallyDisabled
    }
    const other = otherField(ctx, row, id, translated.type, provider)
    if (other.disable) status = ChannelStatus.manuallyDisabled
    const overrides = mapOverrides(ctx, row, id, setting)

    out.push({
      sourceId: id,
      keyText,
      row: {
        type: translated.type,
        name,
        baseUrl,
        models: splitList(text(row.models)).join(','),
        group: splitList(text(row.group)).join(',') || 'default',
        priority: numbers.priority,
        // weights carry over: 0 in new-api is never picked while a weighted channel of the same priority is; in
        // Tollgate it is that priority's backup
        weight: numbers.weight,
        tag: text(row.tag).trim(),
        status,
        modelMapping: modelMapping(ctx, row, id),
        testModel: text(row.test_model).trim(),
        autoBan: (row.auto_ban === null || row.auto_ban === undefined ? true : bool(row.auto_ban)) && autoDisable ? 1 : 0,
        other: other.value,
        setting: Object.keys(setting).length ? JSON.stringify(setting) : '',
        settings: upstreamCheckSettings(row),
        ...overrides,
        usedQuota: numbers.usedQuota,
        responseTime: numbers.responseTime,
        testTime: numbers.testTime,
        ...(numbers.createdTime > 0 ? { createdTime: numbers.createdTime } : {}),
      },
    })
    settingKeys(ctx, row, id, translated.type)
    reportUnread(ctx, 'channels', row, READ, NOTES)
  }
  return out
}

/**
 * The channel's keys. new-api stores several keys one per line (or as a JSON array, for Vertex) and, in
 * `channel_info`, which of them it took out of use. Tollgate keeps no per-key state at rest: a key new-api had
 * disabled is left out (and named in the report) rather than put back into rotation; if every key was disabled,
 * all are kept and the channel is imported auto-disabled, so Tollgate's probe can test them.
 */
function keyList(ctx: MapContext, row: SourceRow, id: number): { keys: string[]; allDisabled: boolean } {
  const raw = text(row.key)
  const trimmed = raw.trim()
  let keys: string[] | undefined
  if (trimmed.startsWith('[')) {
    const parsed = jsonValue(trimmed)
    if (Array.isArray(parsed)) keys = parsed.map((k) => (typeof k === 'string' ? k : JSON.stringify(k))).map((k) => k.trim()).filter(Boolean)
  }
  keys ??= raw.split('\n').map((k) => k.trim()).filter(Boolean)
  const info = jsonObject(row.channel_info)
  const multi = info !== undefined && bool(info.is_multi_key)
  if (!multi) {
    if (keys.length > 1) ctx.report.issue('channels', 'key', 'several keys in a channel new-api did not mark multi-key: Tollgate uses each line as a key, in turn', id)
    return { keys, allDisabled: false }
  }
  if (text(info.multi_key_mode) === 'random') {
    ctx.report.issue('channels', 'channel_info.multi_key_mode', 'random key choice: Tollgate uses the keys in turn (round robin)', id, 'random')
  }
  const statuses = jsonObject(info.multi_key_status_list) ?? {}
  const reasons = jsonObject(info.multi_key_disabled_reason) ?? {}
  const disabled = new Set<number>()
  for (const [index, status] of Object.entries(statuses)) if (int(status, 1) !== 1 && Number(index) < keys.length) disabled.add(Number(index))
  if (disabled.size === 0) return { keys, allDisabled: false }
  if (disabled.size === keys.length) {
    ctx.report.issue('channels', 'channel_info.multi_key_status_list', 'every key was disabled in new-api: all kept, channel imported auto-disabled (status 3) so the probe can re-test them', id)
    return { keys, allDisabled: true }
  }
  for (const index of [...disabled].sort((a, b) => a - b)) {
    const reason = text(reasons[String(index)])
    ctx.report.issue(
      'channels',
      'key',
      `key ${index + 1} (…${keys[index]!.slice(-4)}) was disabled in new-api${reason ? ` (${reason})` : ''}: left out of the key list; add it again in the console if it should be used`,
      id,
    )
  }
  return { keys: keys.filter((_, i) => !disabled.has(i)), allDisabled: false }
}

/** The model mapping as Tollgate stores it; entries it cannot use are dropped and reported. */
function modelMapping(ctx: MapContext, row: SourceRow, id: number): string {
  const raw = text(row.model_mapping).trim()
  if (!raw || raw === '{}') return ''
  const parsed = jsonObject(raw)
  if (!parsed) {
    ctx.report.issue('channels', 'model_mapping', 'not a JSON object: dropped', id)
    return ''
  }
  const kept: Record<string, string> = {}
  for (const [from, to] of Object.entries(parsed)) {
    if (typeof to === 'string' && to.trim()) kept[from] = to.trim()
    else ctx.report.issue('channels', 'model_mapping', `the entry for "${from}" maps to no model name: dropped`, id)
  }
  try {
    const mapping = parseModelMapping(kept)
    return Object.keys(mapping).length ? JSON.stringify(mapping) : ''
  } catch (error) {
    ctx.report.issue('channels', 'model_mapping', `${(error as Error).message}: dropped`, id)
    return ''
  }
}

/**
 * The base URL (see chooseBaseUrl), the preset's when a one-api preset type had none. `disable`: the channel cannot
 * be used as it is (no base URL where one is needed, or an endpoint this type does not reach).
 */
function channelBaseUrl(ctx: MapContext, row: SourceRow, id: number, translated: TypeTranslation, provider: Provider, setting: Record<string, unknown>): { baseUrl: string; disable: boolean } {
  const { report } = ctx
  const raw = text(row.base_url).trim()
  if (!raw && translated.preset) {
    report.mapped('channels', 'base_url', { from: '', to: translated.preset.baseUrl }, `empty: the ${translated.preset.name} preset's base URL`, id)
    return { baseUrl: translated.preset.baseUrl, disable: false }
  }
  const choice = chooseBaseUrl(ctx.flavor, translated.sourceType, provider, raw)
  if (choice.kind === 'invalid') {
    report.issue('channels', 'base_url', `not a usable base URL (${choice.reason}): left empty`, id)
  } else if (choice.kind !== 'kept') {
    report.mapped('channels', 'base_url', { from: raw, to: choice.baseUrl }, choice.note, id)
    if (choice.kind === 'mapped' && choice.pin) setting.upstream_protocol = choice.pin
    if (choice.kind === 'unreachable') {
      setting.imported_from = { schema: ctx.flavor, type: translated.sourceType, type_name: translated.sourceName, base_url: raw }
      return { baseUrl: choice.baseUrl, disable: true }
    }
  }
  const baseUrl = choice.kind === 'invalid' ? '' : choice.baseUrl
  if (!baseUrl && !provider.defaultBaseUrl && !provider.connector) {
    report.issue('channels', 'base_url', `${provider.name} needs a base URL and the channel has none: imported disabled`, id)
    return { baseUrl, disable: true }
  }
  return { baseUrl, disable: false }
}

/**
 * `other`, where the type reads it (provider.otherField): Azure's api-version and Cloudflare's account id, as new-api
 * stores them; one-api moved them into its `config` JSON (`api_version`, `user_id`). Other types' `other` is kept
 * as it was and reported as unused. `disable`: the type needs it and the channel has none.
 */
function otherField(ctx: MapContext, row: SourceRow, id: number, type: number, provider: Provider | undefined): { value: string; disable: boolean } {
  const other = text(row.other).trim()
  const config = jsonObject(row.config)
  if (!provider?.otherField) {
    if (other) ctx.report.issue('channels', 'other', 'kept as it was, but Tollgate does not read it for this type', id)
    return { value: other, disable: false }
  }
  const inConfig = CONFIG_FOR_OTHER[type]
  const value = (inConfig ? text(config?.[inConfig]).trim() : '') || other
  if (!value && provider.otherField.required) {
    ctx.report.issue('channels', 'other', `${provider.name} needs ${provider.otherField.meaning} and the channel has none: imported disabled`, id)
    return { value, disable: true }
  }
  return { value, disable: false }
}

/** new-api's `settings` fields Tollgate keeps in the channel's setting as they are: AdvancedCustom's routes. */
const CARRIED_SETTINGS = new Set(['advanced_custom'])

/**
 * new-api's `settings` fields the type reads, copied into the channel's setting and checked as the API checks them;
 * false when they cannot be used (reported: the channel is imported disabled).
 */
function carriedSetting(ctx: MapContext, row: SourceRow, id: number, provider: Provider, setting: Record<string, unknown>): boolean {
  const settings = jsonObject(row.settings)
  for (const field of CARRIED_SETTINGS) if (settings?.[field] !== undefined) setting[field] = settings[field]
  try {
    provider.checkSetting?.(setting)
    return true
  } catch (error) {
    ctx.report.issue('channels', 'settings.advanced_custom', `${(error as Error).message}: imported disabled`, id)
    return false
  }
}

/** one-api's `config` field that holds what Tollgate keeps in `other`, by Tollgate type: Azure's api-version, Cloudflare's account id */
const CONFIG_FOR_OTHER: Readonly<Record<number, string>> = { 3: 'api_version', 39: 'user_id' }

/** new-api's `setting` / `settings` and one-api's `config`: the fields Tollgate does not read (all but the proxy and system prompt, map-overrides.ts); named, values left out (AWS keys live there). */
function settingKeys(ctx: MapContext, row: SourceRow, id: number, type: number): void {
  for (const column of ['setting', 'settings', 'config'] as const) {
    const object = jsonObject(row[column])
    if (!object) {
      if (text(row[column]).trim()) ctx.report.issue('channels', column, 'not a JSON object: not imported', id)
      continue
    }
    for (const [field, value] of Object.entries(object)) {
      if (value === null || value === '' || value === false || value === 0) continue
      if (column === 'config' && CONFIG_FOR_OTHER[type] === field) continue
      if (column === 'setting' && MAPPED_SETTING_FIELDS.has(field)) continue
      if (column === 'settings' && (CARRIED_SETTINGS.has(field) || field.startsWith(UPSTREAM_CHECK_PREFIX))) continue
      ctx.report.issue('channels', `${column}.${field}`, 'no counterpart in Tollgate: not imported', id)
    }
  }
}

const UPSTREAM_CHECK_PREFIX = 'upstream_model_update_'

/** new-api's `settings` fields of the upstream model check come over as they are (the rest is reported by settingKeys). */
function upstreamCheckSettings(row: SourceRow): string {
  const object = jsonObject(row.settings)
  if (!object || !Object.keys(object).some((field) => field.startsWith(UPSTREAM_CHECK_PREFIX))) return ''
  return JSON.stringify(readUpstreamSettings(JSON.stringify(object)))
}
