import { t } from 'elysia'
import { RedemptionStatus, type NewRedemption } from '../db/repos/redemptions'
import { CreateRedemptionBody } from '../modules/redemptions/schemas'
import { sha256 } from '../crypto/sha256'
import { RowRules } from './api-rules'
import { checkSourceId } from './ids'
import { reportUnread, type MapContext } from './map-common'
import type { SourceRow } from './read-source'
import { int, softDeleted, text } from './values'

export interface MappedRedemption {
  sourceId: number
  /** the admin who made it and the user who redeemed it, as source ids (0: none) */
  sourceCreatorId: number
  sourceUsedUserId: number
  row: Omit<NewRedemption, 'id' | 'userId' | 'usedUserId'>
}

const READ = new Set(['id', 'user_id', 'key', 'status', 'name', 'quota', 'created_time', 'redeemed_time', 'used_user_id', 'expired_time', 'deleted_at'])

const STATUSES = new Set<number>(Object.values(RedemptionStatus))
/** the rules of POST /api/redemption/ */
const Fields = CreateRedemptionBody.properties

/**
 * Redemption codes → Tollgate codes, stored as the sha-256 of the code like every Tollgate code: an unused code
 * stays redeemable (once) with the text the user holds (new-api: a 32-character UUID without dashes).
 */
export function mapRedemptions(ctx: MapContext, rows: SourceRow[]): MappedRedemption[] {
  const { report } = ctx
  const out: MappedRedemption[] = []
  for (const row of rows) {
    report.read('redemptions')
    const id = int(row.id)
    if (softDeleted(row)) {
      report.skipped('redemptions', 'soft-deleted')
      continue
    }
    const code = text(row.key).trim()
    if (!code) {
      report.skipped('redemptions', 'no code')
      continue
    }
    const rules = new RowRules(report, 'redemptions', id)
    checkSourceId(rules, row.id)
    const checked = {
      name: rules.value('name', text(row.name), Fields.name),
      quota: rules.int('quota', row.quota, Fields.quota),
      createdTime: rules.value('created_time', int(row.created_time), Fields.expired_time) || Math.floor(Date.now() / 1000),
      redeemedTime: rules.value('redeemed_time', int(row.redeemed_time), Fields.expired_time),
      expiredTime: rules.value('expired_time', Math.max(0, int(row.expired_time)), Fields.expired_time),
      creator: rules.int('user_id', row.user_id, t.Integer()),
      usedUser: rules.int('used_user_id', row.used_user_id, t.Integer()),
    }
    if (!rules.accept()) continue
    let status = int(row.status, RedemptionStatus.enabled)
    if (!STATUSES.has(status)) {
      report.issue('redemptions', 'status', `status ${status} has no counterpart: imported disabled`, id, String(status))
      status = RedemptionStatus.disabled
    }
    out.push({
      sourceId: id,
      sourceCreatorId: checked.creator,
      sourceUsedUserId: checked.usedUser,
      row: {
        name: checked.name,
        keyHash: sha256(code),
        keyHint: code.slice(0, 4) + code.slice(-4),
        status,
        quota: checked.quota,
        createdTime: checked.createdTime,
        redeemedTime: checked.redeemedTime,
        expiredTime: checked.expiredTime,
      },
    })
    reportUnread(ctx, 'redemptions', row, READ)
  }
  return out
}
