import type { RedemptionRow } from '../../db/repos/redemptions'

/** A code as lists show it: never the code itself (only its first and last four characters). */
export function redemptionView(row: RedemptionRow, key?: string) {
  return {
    id: row.id,
    user_id: row.userId,
    name: row.name,
    key: key ?? `${row.keyHint.slice(0, 4)}************************${row.keyHint.slice(4)}`,
    status: row.status,
    quota: row.quota,
    created_time: row.createdTime,
    redeemed_time: row.redeemedTime,
    used_user_id: row.usedUserId,
    expired_time: row.expiredTime,
  }
}
