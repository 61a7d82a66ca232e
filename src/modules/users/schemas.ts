import { t } from 'elysia'
import { IdParams as PathIdParams, PageQuery } from '../../plugins/paging'
import { Password, Username } from './credentials'

const Id = t.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER })
const Quota = t.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER })
const DisplayName = t.String({ maxLength: 20 })
const Group = t.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_.-]+$' })
/** new-api's forms send `password: ""` for "unchanged"; a non-empty one is checked against Password's bounds. */
const OptionalPassword = t.String({ maxLength: 64 })

export const IdParams = PathIdParams
export const SearchQuery = PageQuery

export const SelfUpdate = t.Object({
  display_name: t.Optional(DisplayName),
  password: t.Optional(OptionalPassword),
  original_password: t.Optional(t.String({ maxLength: 64 })),
})
export type SelfUpdate = typeof SelfUpdate.static

export const AffTransferBody = t.Object({ quota: t.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }) })

export const UserCreate = t.Object({
  username: Username,
  password: Password,
  display_name: t.Optional(DisplayName),
  role: t.Optional(t.Integer()),
  group: t.Optional(Group),
  quota: t.Optional(Quota),
})
export type UserCreate = typeof UserCreate.static

export const UserEdit = t.Object({
  id: Id,
  username: t.Optional(Username),
  display_name: t.Optional(DisplayName),
  password: t.Optional(OptionalPassword),
  group: t.Optional(Group),
  quota: t.Optional(Quota),
  role: t.Optional(t.Integer()),
})
export type UserEdit = typeof UserEdit.static

export const ManageBody = t.Object({
  id: Id,
  action: t.UnionEnum(['enable', 'disable', 'delete', 'promote', 'demote', 'add_quota']),
  /** add_quota: the amount */
  value: t.Optional(t.Integer({ minimum: -Number.MAX_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER })),
  /** add_quota: add (default), subtract or override */
  mode: t.Optional(t.UnionEnum(['add', 'subtract', 'override'])),
})
export type ManageInput = typeof ManageBody.static
