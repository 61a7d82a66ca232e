import { t } from 'elysia'
import { Bounds, integerParam, PageQuery, unixSecondsParam } from '../../plugins/paging'

const text = () => t.Optional(t.String({ maxLength: 200 }))

/** Filters every log query takes (new-api names). Empty strings mean "no filter". */
const filterFields = {
  /** 0 all, 1 top-up, 2 consume, 3 manage, 4 system, 5 error */
  type: t.Optional(integerParam('type', { minimum: 0, maximum: 5 })),
  token_name: text(),
  model_name: text(),
  group: text(),
  request_id: text(),
  start_timestamp: unixSecondsParam('start_timestamp'),
  end_timestamp: unixSecondsParam('end_timestamp'),
}

export const SelfLogQuery = t.Object({ ...PageQuery.properties, ...filterFields }, { additionalProperties: true })
export const AdminLogQuery = t.Object(
  { ...PageQuery.properties, ...filterFields, username: text(), channel: t.Optional(integerParam('channel', { minimum: 0, maximum: Bounds.id.maximum })) },
  { additionalProperties: true },
)
export type SelfLogQuery = typeof SelfLogQuery.static
export type AdminLogQuery = typeof AdminLogQuery.static

export const DataQuery = t.Object(
  { start_timestamp: unixSecondsParam('start_timestamp'), end_timestamp: unixSecondsParam('end_timestamp'), username: text() },
  { additionalProperties: true },
)
export type DataQuery = typeof DataQuery.static
