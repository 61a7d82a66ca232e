import type { TokenRow } from '../../db/repos'
import { maskedKey } from '../../services/tokens'
import type { TokenView } from './schemas'

/** Row → API shape. Lists never carry the key (only its hint, masked) and nothing here carries key_hash. */
export function tokenView(row: TokenRow, fullKey?: string): typeof TokenView.static {
  return {
    id: row.id,
    user_id: row.userId,
    key: fullKey ?? maskedKey(row.keyHint),
    name: row.name,
    status: row.status,
    created_time: row.createdTime,
    accessed_time: row.accessedTime,
    expired_time: row.expiredTime,
    remain_quota: row.remainQuota,
    unlimited_quota: row.unlimitedQuota,
    used_quota: row.usedQuota,
    model_limits_enabled: row.modelLimitsEnabled,
    model_limits: row.modelLimits,
    allow_ips: row.allowIps,
    group: row.group,
  }
}
