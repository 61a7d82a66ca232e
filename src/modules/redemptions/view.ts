import type { RedemptionRow } from '../../db/repos/redemptions'

/**
 * A code as lists show it: never the code itself (only its first and last four characters). `usedUsername`:
 * who redeemed it ('' when nobody has, or that account is gone).
 */
export function redemptionView(row: RedemptionRow, key?: string, usedUsername = '') {
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
    used_username: usedUsername,
    expired_time: row.expiredTime,
  }
}
