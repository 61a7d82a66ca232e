import { t } from 'elysia'
import { BILLING_PREFERENCES } from '../../subscriptions/funding'
import { DURATION_UNITS, RESET_PERIODS } from '../../subscriptions/period'

const id = (description: string) => t.Integer({ minimum: 1, maximum: 2_147_483_647, description })
const quota = t.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description: 'quota of one period (0: no cap)' })
const list = (description: string) => t.Optional(t.String({ maxLength: 4000, description }))

/** A plan as root sends it: new-api's field names. */
export const PlanBody = t.Object({
  title: t.String({ minLength: 1, maxLength: 128 }),
  subtitle: t.Optional(t.String({ maxLength: 255 })),
  price_amount: t.Number({ minimum: 0, maximum: 1_000_000, description: 'price in the currency, major units' }),
  currency: t.Optional(t.String({ pattern: '^(USD|CNY|usd|cny)$' })),
  duration_unit: t.Union(DURATION_UNITS.map((u) => t.Literal(u))),
  duration_value: t.Optional(t.Integer({ minimum: 0, maximum: 1200 })),
  custom_seconds: t.Optional(t.Integer({ minimum: 0, maximum: 100 * 365 * 86_400 })),
  enabled: t.Optional(t.Boolean()),
  sort_order: t.Optional(t.Integer({ minimum: -1_000_000, maximum: 1_000_000 })),
  stripe_price_id: t.Optional(t.String({ maxLength: 128 })),
  creem_product_id: t.Optional(t.String({ maxLength: 128 })),
  max_purchase_per_user: t.Optional(t.Integer({ minimum: 0, maximum: 1_000_000 })),
  total_amount: quota,
  quota_reset_period: t.Optional(t.Union(RESET_PERIODS.map((r) => t.Literal(r)))),
  quota_reset_custom_seconds: t.Optional(t.Integer({ minimum: 0, maximum: 10 * 365 * 86_400 })),
  models: list('models the plan pays for, comma separated ("gpt-4o,claude-*"); empty: all'),
  groups: list('groups the plan pays in, comma separated; empty: all'),
  upgrade_group: t.Optional(t.String({ maxLength: 64, description: "the group a holder is moved to while the plan lasts (one of GroupRatio's); empty: none" })),
})

export const PlanStatusBody = t.Object({ enabled: t.Boolean() })
export const PreferenceBody = t.Object({ billing_preference: t.Union(BILLING_PREFERENCES.map((p) => t.Literal(p))) })
export const BindBody = t.Object({ user_id: id('the user'), plan_id: id('the plan') })
export const GrantBody = t.Object({ plan_id: id('the plan') })
export const PlanEpayBody = t.Object({ plan_id: id('the plan'), payment_method: t.String({ minLength: 1, maxLength: 32, pattern: '^[a-z0-9_]+$' }) })
export const PlanPayBody = t.Object({ plan_id: id('the plan') })
