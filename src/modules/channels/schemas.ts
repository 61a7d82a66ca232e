import type { TOptional } from '@sinclair/typebox'
import { t, type TSchema } from 'elysia'
import { IdParams as PathIdParams, integerParam, PageQuery } from '../../plugins/paging'

const nullable = <T extends TSchema>(schema: T) => t.Union([schema, t.Null()])

const Id = t.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER })
const Weight = t.Integer({ minimum: 0, maximum: 1_000_000 })
const Priority = t.Integer({ minimum: -1_000_000_000, maximum: 1_000_000_000 })
const Tag = t.String({ maxLength: 100 })
/** A comma list (`a,b`) or an array of names. */
const NameList = t.Union([t.String({ maxLength: 100_000 }), t.Array(t.String({ maxLength: 500 }), { maxItems: 5000 })])
/** JSON text or the object itself. */
const JsonObject = nullable(t.Union([t.String({ maxLength: 100_000 }), t.Record(t.String(), t.Unknown())]))

/** Every channel field new-api's forms send; optional here, required ones are checked by the create schema. */
const channelFields = {
  type: t.Integer({ minimum: 0, maximum: 10_000 }),
  name: t.String({ minLength: 1, maxLength: 200 }),
  /** One key per line. */
  key: t.String({ maxLength: 200_000 }),
  base_url: nullable(t.String({ maxLength: 2000 })),
  models: NameList,
  group: NameList,
  priority: nullable(Priority),
  weight: nullable(Weight),
  tag: nullable(Tag),
  status: t.Union([t.Literal(1), t.Literal(2), t.Literal(3)]),
  model_mapping: JsonObject,
  test_model: nullable(t.String({ maxLength: 200 })),
  auto_ban: t.Union([t.Integer({ minimum: 0, maximum: 1 }), t.Boolean()]),
  other: nullable(t.String({ maxLength: 10_000 })),
  setting: JsonObject,
  /** new-api's `settings` (other settings): the upstream model check's switches and ignored list (upstream-settings.ts) */
  settings: JsonObject,
  /** new-api's overrides (relay/overrides): JSON text or the object */
  param_override: JsonObject,
  header_override: JsonObject,
  status_code_mapping: JsonObject,
}

const optional = <T extends Record<string, TSchema>>(fields: T) =>
  Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, t.Optional(v)])) as { [K in keyof T]: TOptional<T[K]> }

export const ChannelCreate = t.Object({
  ...optional(channelFields),
  type: channelFields.type,
  name: channelFields.name,
  key: t.Optional(channelFields.key),
})
export type ChannelCreate = typeof ChannelCreate.static

/**
 * POST /api/channel/: the channel itself, or new-api's `{mode, channel}` wrapper. One object (not a
 * union) so a bad field gets a 400 naming it; `type` and `name` of the bare form are checked by the service.
 */
export const CreateBody = t.Object({
  ...optional(channelFields),
  mode: t.Optional(t.UnionEnum(['single', 'batch', 'multi_to_single'])),
  channel: t.Optional(ChannelCreate),
})
export type CreateBody = typeof CreateBody.static

export const ChannelEdit = t.Object({
  ...optional(channelFields),
  id: Id,
  /** 'append' adds the given key lines to the stored ones; default replaces (an empty key keeps them). */
  key_mode: t.Optional(t.UnionEnum(['replace', 'append'])),
})
export type ChannelEdit = typeof ChannelEdit.static

/** `:id`, checked as text so a bad id gets a 400 naming `id` (plugins/paging). */
export const IdParams = PathIdParams

export const ListQuery = t.Object({
  ...PageQuery.properties,
  type: t.Optional(integerParam('type', { minimum: 0, maximum: 10_000 })),
  /** 1, 2 or 3; or new-api's words: `enabled` (1), `disabled` (2 or 3), `all` */
  status: t.Optional(integerParam('status', { minimum: 1, maximum: 3 }, 'query parameter', ['enabled', 'disabled', 'all'])),
  tag: t.Optional(t.String({ maxLength: 100 })),
  group: t.Optional(t.String({ maxLength: 100 })),
  /** channels whose model list names exactly this model */
  model: t.Optional(t.String({ maxLength: 200 })),
})
export type ListQuery = typeof ListQuery.static

export const TestQuery = t.Object({ model: t.Optional(t.String({ maxLength: 200 })) })

export const IdsBody = t.Object({ ids: t.Array(Id, { minItems: 1, maxItems: 1000 }) })
export const BatchTagBody = t.Object({ ids: t.Array(Id, { minItems: 1, maxItems: 1000 }), tag: t.Optional(nullable(Tag)) })
export const TagBody = t.Object({ tag: t.Optional(nullable(Tag)) })

export const TagEdit = t.Object({
  tag: t.Optional(nullable(Tag)),
  new_tag: t.Optional(nullable(Tag)),
  priority: t.Optional(nullable(Priority)),
  weight: t.Optional(nullable(Weight)),
  models: t.Optional(nullable(NameList)),
  groups: t.Optional(nullable(NameList)),
  model_mapping: t.Optional(JsonObject),
})
export type TagEdit = typeof TagEdit.static

/** new-api's POST /api/channel/fetch_models: the drawer's fields before the channel exists (`id`: an edited channel's stored keys). */
export const FetchModelsBody = t.Object({
  type: channelFields.type,
  key: t.Optional(channelFields.key),
  base_url: t.Optional(channelFields.base_url),
  other: t.Optional(channelFields.other),
  id: t.Optional(Id),
})
export type FetchModelsBody = typeof FetchModelsBody.static

/** new-api's POST /api/channel/copy/:id query: the copy's name suffix, whether its used quota starts at 0. */
export const CopyQuery = t.Object({
  suffix: t.Optional(t.String({ maxLength: 50 })),
  reset_balance: t.Optional(t.UnionEnum(['true', 'false'])),
})

/** new-api's POST /api/channel/upstream_updates/detect: the channel. */
export const UpstreamDetectBody = t.Object({ id: Id })
const ModelNames = t.Array(t.String({ minLength: 1, maxLength: 500 }), { maxItems: 5000 })
/** new-api's POST /api/channel/upstream_updates/apply: the chosen pending changes. */
export const UpstreamApplyBody = t.Object({ id: Id, add_models: t.Optional(ModelNames), remove_models: t.Optional(ModelNames), ignore_models: t.Optional(ModelNames) })
export type UpstreamApplyBody = typeof UpstreamApplyBody.static
