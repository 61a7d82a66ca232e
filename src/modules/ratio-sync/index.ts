import { Elysia, t } from 'elysia'
import type { AppDeps } from '../../deps'
import { BadRequestError } from '../../errors'
import { ok } from '../../plugins/envelope'
import { sessionPlugin } from '../../plugins/session'
import { Role } from '../../db/repos/user-roles'
import { manageLogHook } from '../../metering/manage-log'
import { SYNC_FIELDS } from './sources'
import { appliedTables, fetchDifferences, type Change } from './service'
import { checkOption } from '../../options/store'

const FetchBody = t.Object({
  upstreams: t.Array(
    t.Object({
      name: t.String({ minLength: 1, maxLength: 64 }),
      base_url: t.String({ maxLength: 500 }),
      endpoint: t.Optional(t.String({ maxLength: 500 })),
    }),
    { minItems: 1, maxItems: 10 },
  ),
  /** seconds per source */
  timeout: t.Optional(t.Integer({ minimum: 1, maximum: 60 })),
})

/** A model's prices by prompt length, as ModelTierPricing stores them (checked in full by the option when written). */
const TierConfig = t.Object({
  enabled: t.Optional(t.Boolean()),
  basis: t.Optional(t.String({ maxLength: 32 })),
  tiers: t.Array(t.Record(t.String({ maxLength: 32 }), t.Number({ minimum: 0 })), { minItems: 1, maxItems: 16 }),
})

const ApplyBody = t.Object({
  changes: t.Array(
    t.Object({
      model: t.String({ minLength: 1, maxLength: 200 }),
      field: t.Union(SYNC_FIELDS.map((field) => t.Literal(field))),
      value: t.Union([t.Number({ minimum: 0 }), t.Null(), TierConfig]),
    }),
    { minItems: 1, maxItems: 20_000 },
  ),
})

/**
 * Price sync for root (new-api's `/api/ratio_sync/*`): `fetch` reads other instances' public prices (or a
 * models.dev document) through the outbound guard and answers what would change, writing nothing; `apply` writes
 * the changes root chose into the price options, one manage log row. docs/routing.md "Sync".
 */
export function ratioSyncModule(deps: AppDeps) {
  return new Elysia({ name: 'ratio-sync' })
    .use(sessionPlugin(deps))
    .onAfterHandle(manageLogHook(deps, 'ratio_sync'))
    .post(
      '/api/ratio_sync/fetch',
      async ({ body }) => {
        for (const upstream of body.upstreams) {
          const url = upstream.endpoint && /^https?:\/\//i.test(upstream.endpoint) ? upstream.endpoint : upstream.base_url
          if (!/^https?:\/\/[^\s/]+/i.test(url)) throw new BadRequestError(`"${upstream.name}": base_url must be an http(s) URL`, 'base_url')
        }
        return ok(await fetchDifferences(deps, body.upstreams, (body.timeout ?? 10) * 1000))
      },
      { role: Role.root, body: FetchBody },
    )
    .post(
      '/api/ratio_sync/apply',
      async ({ body }) => {
        const tables = appliedTables(deps.options, body.changes as Change[])
        // every table checked before the first is written: a bad one leaves none half-applied
        for (const [key, table] of Object.entries(tables)) checkOption(key, table)
        for (const [key, table] of Object.entries(tables)) await deps.options.set(key, table)
        return ok({ applied: body.changes.length, options: Object.keys(tables) })
      },
      { role: Role.root, body: ApplyBody },
    )
}
