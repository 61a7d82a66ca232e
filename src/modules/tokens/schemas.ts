import { t } from 'elysia'
import { IdParams } from '../../plugins/paging'

const MAX_UNIX_SECONDS = 253402300799 // 9999-12-31: catches millisecond timestamps sent by mistake

/** The editable token fields, new-api names. Create and edit both take them, all optional. */
const fields = {
  name: t.Optional(t.String({ maxLength: 50 })),
  remain_quota: t.Optional(t.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER })),
  unlimited_quota: t.Optional(t.Boolean()),
  expired_time: t.Optional(t.Integer({ minimum: -1, maximum: MAX_UNIX_SECONDS })),
  model_limits_enabled: t.Optional(t.Boolean()),
  model_limits: t.Optional(t.String({ maxLength: 8192 })), // comma-separated model names
  allow_ips: t.Optional(t.String({ maxLength: 8192 })), // IPs or CIDRs, newline- or comma-separated
  group: t.Optional(t.String({ maxLength: 64 })),
}

export const CreateTokenBody = t.Object(fields)

export const UpdateTokenBody = t.Object({
  id: t.Integer({ minimum: 1 }),
  status: t.Optional(t.Integer({ minimum: 1, maximum: 4 })),
  ...fields,
})

export const UpdateTokenQuery = t.Object({ status_only: t.Optional(t.String({ maxLength: 10 })) })

/** `:id`, checked as text so a bad id gets a 400 naming `id` (plugins/paging). */
export const TokenIdParams = IdParams

export const BatchDeleteBody = t.Object({ ids: t.Array(t.Integer({ minimum: 1 }), { minItems: 1, maxItems: 1000 }) })

/** A token as the API shows it. `key` is masked, except in the create answer where it is the full key once. */
export const TokenView = t.Object({
  id: t.Integer(),
  user_id: t.Integer(),
  key: t.String(),
  name: t.String(),
  status: t.Integer(),
  created_time: t.Integer(),
  accessed_time: t.Integer(),
  expired_time: t.Integer(),
  remain_quota: t.Integer(),
  unlimited_quota: t.Boolean(),
  used_quota: t.Integer(),
  model_limits_enabled: t.Boolean(),
  model_limits: t.String(),
  allow_ips: t.String(),
  group: t.String(),
})
