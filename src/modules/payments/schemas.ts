import { t } from 'elysia'
import { Bounds, integerParam, PageQuery, unixSecondsParam } from '../../plugins/paging'

const amount = t.Integer({ minimum: 1, maximum: 1_000_000, description: 'US$ of quota to buy' })
const returnUrl = t.Optional(t.String({ maxLength: 2000, description: 'where the provider sends the browser back; default: the wallet page' }))

export const AmountBody = t.Object({ amount })
export const EpayPayBody = t.Object({ amount, payment_method: t.String({ minLength: 1, maxLength: 32, pattern: '^[a-z0-9_]+$' }) })
export const StripePayBody = t.Object({ amount, payment_method: t.Optional(t.Literal('stripe')), success_url: returnUrl, cancel_url: returnUrl })
export const CreemPayBody = t.Object({ product_id: t.String({ minLength: 1, maxLength: 100 }), payment_method: t.Optional(t.Literal('creem')) })

export const OrderQuery = t.Object({
  ...PageQuery.properties,
  // patterns, not enums: Elysia fills an optional enum in a query with its first member
  status: t.Optional(t.String({ pattern: '^(pending|success|expired|failed)$', description: 'pending, success (paid), expired or failed' })),
  provider: t.Optional(t.String({ pattern: '^(epay|stripe|creem)$', description: 'epay, stripe or creem' })),
  user_id: t.Optional(integerParam('user_id', Bounds.id)),
  start_timestamp: unixSecondsParam('start_timestamp'),
  end_timestamp: unixSecondsParam('end_timestamp'),
})

export const CompleteBody = t.Object({
  trade_no: t.String({ minLength: 1, maxLength: 100 }),
  reason: t.String({ minLength: 1, maxLength: 500, description: 'why the order is completed by hand (kept in the manage log)' }),
})
