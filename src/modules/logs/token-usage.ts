import type { AppDeps } from '../../deps'
import { verifyToken } from '../../relay/auth'

/** `GET /api/usage/token/`: an API key's own balance and usage, authenticated by the key itself (`Authorization: Bearer sk-…`). */
export async function tokenUsage(deps: AppDeps, headers: Headers, clientIp: string, url: string) {
  const { token: cached } = await verifyToken(deps, { headers, clientIp, url })
  const token = (await deps.repos.tokens.findById(cached.id)) ?? cached
  return {
    object: 'token_usage',
    name: token.name,
    unlimited_quota: token.unlimitedQuota,
    total_granted: token.remainQuota + token.usedQuota,
    total_used: token.usedQuota,
    total_available: token.unlimitedQuota ? -1 : token.remainQuota,
    quota_per_unit: deps.options.get<number>('QuotaPerUnit'),
    model_limits_enabled: token.modelLimitsEnabled,
    model_limits: token.modelLimits ? token.modelLimits.split(',').filter(Boolean) : [],
    expires_at: token.expiredTime,
    accessed_time: token.accessedTime,
  }
}
