import { t } from 'elysia'
import { PageQuery } from '../../plugins/paging'

const text = () => t.Optional(t.String({ maxLength: 200 }))
const unixTime = () => t.Optional(t.Integer({ minimum: 0, maximum: 253_402_300_799 }))

/** Filters every log query takes (new-api names). Empty strings mean "no filter". */
const filterFields = {
  type: t.Optional(t.Integer({ minimum: 0, maximum: 5, description: '0 all, 1 top-up, 2 consume, 3 manage, 4 system, 5 error' })),
  token_name: text(),
  model_name: text(),
  group: text(),
  request_id: text(),
  start_timestamp: unixTime(),
  end_timestamp: unixTime(),
}

export const SelfLogQuery = t.Object({ ...PageQuery.properties, ...filterFields }, { additionalProperties: true })
export const AdminLogQuery = t.Object(
  { ...PageQuery.properties, ...filterFields, username: text(), channel: t.Optional(t.Integer({ minimum: 0 })) },
  { additionalProperties: true },
)
export type SelfLogQuery = typeof SelfLogQuery.static
export type AdminLogQuery = typeof AdminLogQuery.static

export const DataQuery = t.Object(
  { start_timestamp: unixTime(), end_timestamp: unixTime(), username: text() },
  { additionalProperties: true },
)
export type DataQuery = typeof DataQuery.static
