import { Elysia, t } from 'elysia'
import type { AppDeps } from '../../deps'
import { GatewayError } from '../../errors'
import { ok } from '../../plugins/envelope'
import { sessionPlugin } from '../../plugins/session'
import { Role } from '../../db/repos/user-roles'
import { manageLogHook } from '../../metering/manage-log'
import { SESSION_RULES } from '../../relay/routing/affinity/session-identity'

const ClearQuery = t.Object({
  all: t.Optional(t.String({ maxLength: 8 })),
  rule_name: t.Optional(t.String({ maxLength: 64 })),
})

/**
 * The session affinity cache for root (new-api's `/api/option/channel_affinity_cache`): how many sessions are
 * pinned, per rule (the client kind that named them), and a clear, of all or of one rule.
 */
export function affinityCacheModule(deps: AppDeps) {
  return new Elysia({ name: 'affinity-cache' })
    .use(sessionPlugin(deps))
    .onAfterHandle(manageLogHook(deps, 'option'))
    .get(
      '/api/option/channel_affinity_cache',
      async () => {
        const counts = await deps.coord.affinity.stats()
        const byRule = Object.fromEntries(SESSION_RULES.map((rule) => [rule, counts.byRule[rule] ?? 0]))
        const known = Object.values(byRule).reduce((a, b) => a + b, 0)
        return ok({
          enabled: deps.options.get<boolean>('channel_affinity_setting.enabled'),
          total: counts.total,
          unknown: counts.total - known,
          by_rule_name: byRule,
          cache_capacity: deps.options.get<number>('channel_affinity_setting.max_entries'),
          cache_algo: 'LRU',
          ttl_seconds: deps.options.get<number>('channel_affinity_setting.default_ttl_seconds'),
          shared: deps.coord.health().shared,
        })
      },
      { role: Role.root },
    )
    .delete(
      '/api/option/channel_affinity_cache',
      async ({ query }) => {
        if (query.all === 'true') return ok({ deleted: await deps.coord.affinity.clear() })
        const rule = query.rule_name?.trim()
        if (!rule) throw new GatewayError(400, 'missing_rule_name', 'give rule_name, or all=true to clear every session', 'rule_name')
        if (!(SESSION_RULES as readonly string[]).includes(rule)) throw new GatewayError(400, 'unknown_rule', `rule_name must be one of ${SESSION_RULES.join(', ')}`, 'rule_name')
        return ok({ deleted: await deps.coord.affinity.clear(rule) })
      },
      { role: Role.root, query: ClearQuery },
    )
}
