import { t } from 'elysia'
import { IdParams } from '../../plugins/paging'

const expiry = () => t.Optional(t.Integer({ minimum: 0, maximum: 253_402_300_799, description: 'unix seconds; 0 = never' }))

export const CreateRedemptionBody = t.Object({
  name: t.String({ minLength: 1, maxLength: 100 }),
  count: t.Optional(t.Integer({ minimum: 1, maximum: 100, default: 1 })),
  quota: t.Integer({ minimum: 1, maximum: 1_000_000_000_000 }),
  expired_time: expiry(),
})

export const UpdateRedemptionBody = t.Object({
  id: t.Integer({ minimum: 1 }),
  name: t.Optional(t.String({ minLength: 1, maxLength: 100 })),
  quota: t.Optional(t.Integer({ minimum: 1, maximum: 1_000_000_000_000 })),
  status: t.Optional(t.UnionEnum([1, 2], { description: '1 enabled, 2 disabled' })),
  expired_time: expiry(),
})

export const RedemptionIdParams = IdParams

export const TopUpBody = t.Object({ key: t.String({ minLength: 1, maxLength: 200 }) })

export type CreateRedemptionInput = typeof CreateRedemptionBody.static
export type UpdateRedemptionInput = typeof UpdateRedemptionBody.static
