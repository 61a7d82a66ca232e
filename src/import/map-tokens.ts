import { t } from 'elysia'
import type { NewToken } from '../db/repos/tokens'
import { CreateTokenBody } from '../modules/tokens/schemas'
import { parseIpEntry, splitIpList } from '../services/tokens/ip-list'
import { keyBodyOf, keyHash, keyHint } from '../services/tokens/key'
import { NEVER_EXPIRES, TokenStatus } from '../services/tokens/token-status'
import { RowRules } from './api-rules'
import { checkSourceId } from './ids'
import { reportUnread, type MapContext } from './map-common'
import type { SourceRow } from './read-source'
import { bool, int, softDeleted, text } from './values'

export interface MappedToken {
  sourceId: number
  sourceUserId: number
  row: Omit<NewToken, 'id' | 'userId'>
}

const READ = new Set([
  'id', 'user_id', 'key', 'status', 'name', 'created_time', 'accessed_time', 'expired_time', 'remain_quota', 'unlimited_quota',
  'used_quota', 'model_limits_enabled', 'model_limits', 'allow_ips', 'group', 'deleted_at',
  // one-api
  'models', 'subnet',
])

const NOTES: Record<string, string> = {
  cross_group_retry: "retry in another group (new-api's auto group): Tollgate routes in the token's group only",
  billing_type: 'subscription-first billing: Tollgate has no subscriptions, every request is paid from the balance',
  created_at: 'row timestamp: created_time is used',
  updated_at: 'row timestamp: not kept',
}

const STATUSES = new Set<number>(Object.values(TokenStatus))
/** the rules of POST /api/token/ */
const Fields = CreateTokenBody.properties

/**
 * API keys of new-api / one-api → Tollgate tokens. The key a client already holds keeps working: the source
 * stores it without `sk-` (new-api: 48 letters and digits), Tollgate stores the sha-256 of that same body and the
 * relay strips `sk-` before hashing, so `sk-<key>` and `<key>` both find it.
 */
export function mapTokens(ctx: MapContext, rows: SourceRow[]): MappedToken[] {
  const { report } = ctx
  const out: MappedToken[] = []
  for (const row of rows) {
    report.read('tokens')
    const id = int(row.id)
    if (softDeleted(row)) {
      report.skipped('tokens', 'soft-deleted')
      continue
    }
    const key = text(row.key).trim().replace(/^sk-/, '')
    if (!key) {
      report.skipped('tokens', 'no key')
      continue
    }
    if (!keyBodyOf(key)) {
      report.issue('tokens', 'key', 'a key format the relay does not accept (16–128 letters and digits): the token is kept, but requests with this key are refused', id)
    }
    const rules = new RowRules(report, 'tokens', id)
    checkSourceId(rules, row.id)
    const checked = {
      name: rules.value('name', text(row.name), Fields.name),
      remainQuota: rules.int('remain_quota', row.remain_quota, Fields.remain_quota, { clamp: true }),
      usedQuota: rules.int('used_quota', row.used_quota, Fields.remain_quota, { clamp: true }),
      // -1 never; any other value is a unix time, 0 included (already expired), as in new-api
      expiredTime: rules.int('expired_time', row.expired_time, Fields.expired_time, { fallback: NEVER_EXPIRES }),
      createdTime: rules.value('created_time', int(row.created_time), Fields.expired_time) || Math.floor(Date.now() / 1000),
      accessedTime: rules.value('accessed_time', int(row.accessed_time), Fields.expired_time),
      group: rules.value('group', text(row.group).trim(), Fields.group),
      sourceUserId: rules.int('user_id', row.user_id, t.Integer()),
    }
    const limitsText = rules.value('model_limits', ctx.flavor === 'one-api' ? text(row.models) : text(row.model_limits), Fields.model_limits)
    const ipsText = rules.value('allow_ips', ctx.flavor === 'one-api' ? text(row.subnet) : text(row.allow_ips), Fields.allow_ips)
    if (!rules.accept()) continue

    let status = int(row.status, TokenStatus.enabled)
    if (!STATUSES.has(status)) {
      report.issue('tokens', 'status', `status ${status} has no counterpart: imported disabled`, id, String(status))
      status = TokenStatus.disabled
    }

    // new-api: model_limits_enabled + model_limits; one-api: models (empty = every model)
    const modelLimits = [...new Set(limitsText.split(',').map((m) => m.trim()).filter(Boolean))].join(',')
    const modelLimitsEnabled = ctx.flavor === 'one-api' ? modelLimits !== '' : bool(row.model_limits_enabled)

    let group = checked.group
    if (group === 'auto') {
      report.issue('tokens', 'group', "new-api's auto group (pick a group per request) has no counterpart: the token uses its owner's group", id, 'auto')
      group = ''
    }
    out.push({
      sourceId: id,
      sourceUserId: checked.sourceUserId,
      row: {
        keyHash: keyHash(key),
        keyHint: keyHint(key),
        name: checked.name,
        status,
        createdTime: checked.createdTime,
        accessedTime: checked.accessedTime,
        expiredTime: checked.expiredTime,
        remainQuota: checked.remainQuota,
        unlimitedQuota: bool(row.unlimited_quota),
        usedQuota: checked.usedQuota,
        modelLimitsEnabled,
        modelLimits,
        allowIps: allowList(ctx, id, ipsText),
        group,
      },
    })
    reportUnread(ctx, 'tokens', row, READ, NOTES)
  }
  return out
}

/**
 * new-api's allow list (one entry per line) or one-api's subnet (comma-separated CIDRs), one entry per line.
 * An entry Tollgate cannot read is kept as it is and reported: the relay skips unreadable entries, and a list
 * of only unreadable ones allows no one, so keeping them never opens a token up.
 */
function allowList(ctx: MapContext, id: number, raw: string): string {
  const entries = [...new Set(splitIpList(raw.replaceAll(' ', '')))]
  for (const entry of entries) {
    if (!parseIpEntry(entry)) ctx.report.issue('tokens', 'allow_ips', 'an entry that is not an IP address or CIDR range: kept, but it matches no client', id, entry)
  }
  return entries.join('\n')
}
