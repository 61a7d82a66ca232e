import type { HourlyRow } from '../db/repos/import'
import { LogType, type NewLog } from '../db/repos/logs'
import { RowRules } from './api-rules'
import type { MapContext } from './map-common'
import type { SourceRow } from './read-source'
import { bool, int, jsonObject, text } from './values'

/** Source ids → target ids for the rows logs point at. */
export interface IdResolver {
  user(id: number): number
  token(id: number): number
  channel(id: number): number
}

const LOG_TYPES = new Set<number>(Object.values(LogType))

const READ = new Set([
  'id', 'user_id', 'created_at', 'type', 'content', 'username', 'token_name', 'model_name', 'quota', 'prompt_tokens',
  'completion_tokens', 'use_time', 'elapsed_time', 'is_stream', 'channel_id', 'token_id', 'group', 'ip', 'other', 'request_id',
  // only joined in for display by new-api (`gorm:"->"`), never stored
  'channel_name',
])

const NOTES: Record<string, string> = {
  system_prompt_reset: "one-api's flag for a replaced system prompt: no counterpart",
}

/**
 * One usage log row of new-api / one-api → a Tollgate log row. Types 1–5 mean the same (1 top-up, 2 consume,
 * 3 manage, 4 system, 5 error) except one-api's 5, a channel test; new-api's 6 (refund) and anything else
 * become system rows that say what they were. new-api keeps cache tokens, time to first token and the mapped
 * model in `other`; Tollgate has columns for them.
 */
export function mapLog(ctx: MapContext, row: SourceRow, ids: IdResolver): NewLog | undefined {
  const { report } = ctx
  const id = int(row.id)
  const rules = new RowRules(report, 'logs', id)
  const n = exactEnough(rules)
  const other = jsonObject(row.other) ?? {}
  let type = int(row.type)
  let content = text(row.content)
  const sourceType = type
  if (ctx.flavor === 'one-api' && type === 5) {
    type = LogType.system
    content = `[channel test] ${content}`
  } else if (!LOG_TYPES.has(type)) {
    const what = type === 6 ? 'refund' : `type ${type}`
    type = LogType.system
    content = `[${what}] ${content}`
  }
  if (type !== sourceType) {
    report.issue('logs', 'type', `log type ${sourceType}${sourceType === 6 ? ' (refund)' : ctx.flavor === 'one-api' && sourceType === 5 ? ' (channel test)' : ''} has no counterpart: imported as a system row (4), its kind in front of the content`, id, String(sourceType))
  }
  if ('admin_info' in other) {
    delete other.admin_info
    report.issue('logs', 'other.admin_info', "new-api's admin-only details (channel path): not kept")
  }
  if (sourceType !== type) other.source_type = sourceType
  for (const [column, value] of Object.entries(row)) {
    if (READ.has(column) || value === null || value === undefined || value === '' || value === 0 || value === false) continue
    report.issue('logs', column, NOTES[column] ?? 'no counterpart in Tollgate: not imported', id)
  }
  const useTimeMs = row.elapsed_time !== undefined && row.use_time === undefined ? n('elapsed_time', row.elapsed_time) : n('use_time', row.use_time) * 1000
  const mapped = bool(other.is_model_mapped) ? text(other.upstream_model_name) : ''
  const log: NewLog = {
    createdAt: n('created_at', row.created_at),
    type,
    userId: ids.user(int(row.user_id)),
    username: text(row.username),
    tokenId: ids.token(int(row.token_id)),
    tokenName: text(row.token_name),
    modelName: text(row.model_name),
    upstreamModel: mapped,
    channelId: ids.channel(int(row.channel_id)),
    group: text(row.group),
    promptTokens: n('prompt_tokens', row.prompt_tokens),
    completionTokens: n('completion_tokens', row.completion_tokens),
    cacheReadTokens: n('other.cache_tokens', other.cache_tokens),
    cacheWriteTokens: n('other.cache_creation_tokens', other.cache_creation_tokens),
    reasoningTokens: n('other.reasoning_tokens', other.reasoning_tokens),
    quota: n('quota', row.quota),
    useTimeMs,
    firstTokenMs: n('other.frt', other.frt),
    isStream: bool(row.is_stream),
    statusCode: int(other.status_code),
    ip: text(row.ip),
    requestId: text(row.request_id) || text(other.request_id),
    content,
    other: Object.keys(other).length ? JSON.stringify(other) : '',
  }
  return rules.accept() ? log : undefined
}

/**
 * A number of a log row as a whole number; one beyond ±(2^53−1) (1e300, a bigint's digits) refuses the row, as
 * no sum over it could be right. Fractions are cut, as new-api's own integer columns would have.
 */
function exactEnough(rules: RowRules): (field: string, raw: unknown) => number {
  return (field, raw) => {
    const n = int(raw)
    if (Number.isSafeInteger(n)) return n
    rules.refuse(field, 'not a whole number Tollgate can hold exactly (within ±(2^53−1))', text(raw).slice(0, 64))
    return 0
  }
}

/** One row of new-api's `quota_data` (usage per user, model and hour: the dashboard's data) → Tollgate's hourly row. */
export function mapQuotaData(ctx: MapContext, row: SourceRow, ids: IdResolver): HourlyRow | undefined {
  const rules = new RowRules(ctx.report, 'quota_data', int(row.id))
  const n = exactEnough(rules)
  const at = n('created_at', row.created_at)
  const hourly: HourlyRow = {
    userId: ids.user(int(row.user_id)),
    username: text(row.username),
    modelName: text(row.model_name),
    hour: at - (((at % 3600) + 3600) % 3600),
    count: n('count', row.count),
    quota: n('quota', row.quota),
    tokenUsed: n('token_used', row.token_used),
  }
  return rules.accept() ? hourly : undefined
}
