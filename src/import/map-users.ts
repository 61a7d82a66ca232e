import { t } from 'elysia'
import type { NewUser } from '../db/repos/users'
import { CreateTokenBody } from '../modules/tokens/schemas'
import { Username } from '../modules/users/credentials'
import { UserCreate } from '../modules/users/schemas'
import { compiledSchema } from '../protocols/schema-check'
import { RowRules } from './api-rules'
import { checkSourceId } from './ids'
import { Role, UserStatus } from '../db/repos/user-roles'
import { sha256 } from '../crypto/sha256'
import { reportUnread, type MapContext } from './map-common'
import type { SourceRow } from './read-source'
import { int, softDeleted, text } from './values'
import { mapNotifySetting, type MappedNotify } from './map-notify'

export interface MappedUser {
  sourceId: number
  /** the row to insert, without its id (the writer keeps the source id or gives a new one) */
  row: Omit<NewUser, 'id'>
  /** users.inviter_id in the source (0: none) */
  sourceInviterId: number
  /** the sign-in providers bound in the source's columns (github_id, …): Tollgate's user_bindings rows */
  bindings: { provider: string; externalId: string }[]
  /** the notification settings of new-api's `setting` (map-notify.ts) */
  notify?: MappedNotify
}

/** new-api's and one-api's binding columns → Tollgate's provider names (docs/accounts.md). */
const BINDING_COLUMNS: Record<string, string> = {
  github_id: 'github',
  discord_id: 'discord',
  oidc_id: 'oidc',
  linux_do_id: 'linuxdo',
  telegram_id: 'telegram',
  wechat_id: 'wechat',
}

const READ = new Set([
  'id', 'username', 'password', 'display_name', 'role', 'status', 'email', 'group', 'quota', 'used_quota', 'request_count',
  'aff_code', 'aff_count', 'aff_quota', 'aff_history', 'aff_history_quota', 'inviter_id', 'access_token', 'created_at',
  'created_time', 'deleted_at',
  // new-api's session counter: no session carries over (everyone logs in once), so there is nothing to map
  'auth_version',
  // its notification settings (map-notify.ts); the rest of it is named in the report
  'setting',
  ...Object.keys(BINDING_COLUMNS),
])

const NOTES: Record<string, string> = {
  lark_id: 'Lark sign-in binding: Tollgate has no Lark sign-in',
  remark: 'admin remark: no counterpart',
  stripe_customer: 'Stripe customer id: Tollgate has no payments',
  last_login_at: 'last login time: not recorded by Tollgate',
  invite_rebate_eligible: 'top-up rebate flag: Tollgate has no recharge rebates',
}

const ROLES = new Set<number>([Role.user, Role.admin, Role.root])
/** a token's group rule: what routing and prices accept as a group name */
const TokenGroup = CreateTokenBody.properties.group
const UnixTime = CreateTokenBody.properties.expired_time
const Count = UserCreate.properties.quota
/** the group rule of PUT /api/user/: a name outside it still routes and prices, so it is kept (and noted) */
const EditableGroup = UserCreate.properties.group
/** no form edits these: bounds so a row cannot carry megabytes into every user list */
const Email = t.String({ maxLength: 254 })
const AffCode = t.String({ maxLength: 64 })
const PasswordHash = t.String({ maxLength: 512 })

/**
 * Users of new-api / one-api → Tollgate users. Soft-deleted users are skipped (and their tokens with them); so
 * is a user with a value the API refuses (src/import/api-rules.ts), listed in the report with the reason.
 */
export function mapUsers(ctx: MapContext, rows: SourceRow[]): MappedUser[] {
  const { report } = ctx
  const out: MappedUser[] = []
  for (const row of rows) {
    report.read('users')
    const id = int(row.id)
    if (softDeleted(row)) {
      report.skipped('users', 'soft-deleted')
      continue
    }
    const username = text(row.username)
    if (!username) {
      report.skipped('users', 'no username')
      report.issue('users', 'username', 'empty username: the user cannot log in and was not imported', id)
      continue
    }
    const rules = new RowRules(report, 'users', id)
    checkSourceId(rules, row.id)
    rules.value('username', username, Username)
    const password = rules.value('password', text(row.password), PasswordHash)
    const group = rules.value('group', text(row.group).trim() || 'default', TokenGroup)
    const mapped = {
      displayName: rules.value('display_name', text(row.display_name), UserCreate.properties.display_name),
      email: rules.value('email', text(row.email), Email),
      quota: rules.int('quota', row.quota, Count, { clamp: true }),
      usedQuota: rules.int('used_quota', row.used_quota, Count, { clamp: true }),
      requestCount: rules.int('request_count', row.request_count, Count, { clamp: true }),
      affCode: rules.value('aff_code', text(row.aff_code).trim(), AffCode) || null,
      affCount: rules.int('aff_count', row.aff_count, Count, { clamp: true }),
      affQuota: rules.int('aff_quota', row.aff_quota, Count, { clamp: true }),
      // new-api's struct field AffHistoryQuota is stored in the column aff_history
      affHistoryQuota: rules.int('aff_history', row.aff_history ?? row.aff_history_quota, Count, { clamp: true }),
      created: rules.value('created_at', int(row.created_at) || int(row.created_time), UnixTime),
      inviter: rules.int('inviter_id', row.inviter_id, t.Integer()),
    }
    if (!rules.accept()) continue

    const bindings = bindingsOf(row)
    if (!password) {
      if (bindings.length === 0) report.issue('users', 'password', 'no password and no sign-in provider bound: cannot log in until an admin sets a password', id)
    } else if (!/^\$(2[abxy]?|argon2(id|i|d))\$/.test(password)) report.issue('users', 'password', 'not a bcrypt or argon2 hash: logging in with it will fail', id)

    let role = int(row.role, Role.user)
    if (!ROLES.has(role)) {
      report.issue('users', 'role', `role ${role} has no counterpart (Tollgate: 1 user, 10 admin, 100 root): imported as ${role > Role.root ? 'root' : 'user'}`, id, String(role))
      role = role > Role.root ? Role.root : Role.user
    }
    let status = int(row.status, UserStatus.enabled)
    if (status !== UserStatus.enabled && status !== UserStatus.disabled) {
      report.issue('users', 'status', `status ${status} has no counterpart: imported disabled`, id, String(status))
      status = UserStatus.disabled
    }
    if (!compiledSchema(EditableGroup).Check(group)) {
      report.issue('users', 'group', "a group name outside the rule of Tollgate's user edit form (letters, digits, _ . -): routing and prices use it as it is, but an admin edit of this user must pick another", id, group)
    }
    const accessToken = text(row.access_token).trim()
    const { created, inviter, ...fields } = mapped
    out.push({
      sourceId: id,
      sourceInviterId: inviter,
      bindings,
      notify: mapNotifySetting(ctx, id, row.setting),
      row: {
        username,
        password,
        role,
        status,
        group,
        ...fields,
        inviterId: 0, // set by the writer once the inviter's id in the target is known
        // stored as its sha-256 like every Tollgate access token: scripts keep working with `Authorization: Bearer <token>`
        accessToken: accessToken ? sha256(accessToken) : null,
        ...(created > 0 ? { createdTime: created } : {}),
      },
    })
    reportUnread(ctx, 'users', row, READ, NOTES)
  }
  return out
}

/** The provider ids a source user has (a non-empty github_id, …), bounded as a provider's id is. */
function bindingsOf(row: SourceRow): MappedUser['bindings'] {
  const out: MappedUser['bindings'] = []
  for (const [column, provider] of Object.entries(BINDING_COLUMNS)) {
    const externalId = text(row[column]).trim()
    if (externalId && externalId.length <= 256) out.push({ provider, externalId })
  }
  return out
}
