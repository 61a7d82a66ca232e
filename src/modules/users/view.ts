import { t } from 'elysia'
import type { UserRow } from '../../db/repos'

/** What the API shows of a user: new-api's field names, never the password hash or access token. */
export const UserView = t.Object({
  id: t.Integer(),
  username: t.String(),
  display_name: t.String(),
  role: t.Integer(),
  status: t.Integer(),
  email: t.String(),
  group: t.String(),
  quota: t.Integer(),
  used_quota: t.Integer(),
  request_count: t.Integer(),
  aff_code: t.String(),
  aff_count: t.Integer(),
  aff_quota: t.Integer(),
  aff_history_quota: t.Integer(),
  inviter_id: t.Integer(),
  created_time: t.Integer(),
})
export type UserView = typeof UserView.static

/** The short form the login answer carries. */
export const LoginView = t.Pick(UserView, ['id', 'username', 'display_name', 'role', 'status', 'group'])
export type LoginView = typeof LoginView.static

export function toUserView(row: UserRow): UserView {
  return {
    id: row.id,
    username: row.username,
    display_name: row.displayName,
    role: row.role,
    status: row.status,
    email: row.email,
    group: row.group,
    quota: row.quota,
    used_quota: row.usedQuota,
    request_count: row.requestCount,
    aff_code: row.affCode ?? '',
    aff_count: row.affCount,
    aff_quota: row.affQuota,
    aff_history_quota: row.affHistoryQuota,
    inviter_id: row.inviterId,
    created_time: row.createdTime,
  }
}

export function toLoginView(row: UserRow): LoginView {
  return { id: row.id, username: row.username, display_name: row.displayName, role: row.role, status: row.status, group: row.group }
}
