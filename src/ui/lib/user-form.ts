/** The user drawer's checks and request bodies (POST /api/user/ to create, PUT /api/user/ to edit). */
import { dollarsToQuota } from './format'
import { parseAmount, PASSWORD_MAX, PASSWORD_MIN, USERNAME_PATTERN } from './validate'

const DISPLAY_NAME_MAX = 20
const GROUP_PATTERN = /^[A-Za-z0-9_.-]{1,64}$/

export interface UserFields {
  username: string
  displayName: string
  password: string
  role: string
  group: string
  /** the balance in US$, as typed */
  dollars: string
}

export type UserFieldError = 'required' | 'usernameFormat' | 'passwordLength' | 'displayNameLength' | 'groupFormat' | 'amount'
export type UserFieldErrors = Partial<Record<keyof UserFields, UserFieldError>>

/** What is wrong with the fields; creating needs a username and password, editing keeps an empty password. */
export function checkUserFields(fields: UserFields, creating: boolean): UserFieldErrors {
  const errors: UserFieldErrors = {}
  if (creating) {
    if (!fields.username.trim()) errors.username = 'required'
    else if (!USERNAME_PATTERN.test(fields.username.trim())) errors.username = 'usernameFormat'
    if (!fields.password) errors.password = 'required'
  }
  if (fields.password && (fields.password.length < PASSWORD_MIN || fields.password.length > PASSWORD_MAX)) errors.password = 'passwordLength'
  if (fields.displayName.trim().length > DISPLAY_NAME_MAX) errors.displayName = 'displayNameLength'
  if (!GROUP_PATTERN.test(fields.group.trim())) errors.group = fields.group.trim() ? 'groupFormat' : 'required'
  if (parseAmount(fields.dollars) === undefined) errors.dollars = 'amount'
  return errors
}

export interface CreateUserBody {
  username: string
  password: string
  display_name?: string
  role?: number
  group: string
  quota: number
}

export function createUserBody(fields: UserFields, quotaPerUnit: number): CreateUserBody {
  const displayName = fields.displayName.trim()
  return {
    username: fields.username.trim(),
    password: fields.password,
    ...(displayName ? { display_name: displayName } : {}),
    ...(fields.role ? { role: Number(fields.role) } : {}),
    group: fields.group.trim(),
    quota: dollarsToQuota(parseAmount(fields.dollars) ?? 0, quotaPerUnit),
  }
}

export interface EditableUser {
  id: number
  display_name: string
  role: number
  group: string
  quota: number
}

export interface EditUserBody {
  id: number
  display_name?: string
  password?: string
  group?: string
  quota?: number
  role?: number
}

/**
 * Only what changed is sent: an untouched balance is left out, so quota spent while the drawer was open
 * is not written back; an empty password keeps the old one.
 */
export function editUserBody(user: EditableUser, fields: UserFields, quotaPerUnit: number): EditUserBody {
  const body: EditUserBody = { id: user.id }
  const displayName = fields.displayName.trim()
  if (displayName !== user.display_name) body.display_name = displayName
  if (fields.password) body.password = fields.password
  if (fields.group.trim() !== user.group) body.group = fields.group.trim()
  const quota = dollarsToQuota(parseAmount(fields.dollars) ?? 0, quotaPerUnit)
  // the field shows a rounded dollar amount: only a different amount counts as a change
  if (quota !== dollarsToQuota(Number(quotaToDollarText(user.quota, quotaPerUnit)), quotaPerUnit)) body.quota = quota
  if (fields.role && Number(fields.role) !== user.role) body.role = Number(fields.role)
  return body
}

/** A balance as the dollar text the field starts with (up to 6 decimals, no trailing zeros). */
export function quotaToDollarText(quota: number, quotaPerUnit: number): string {
  if (quotaPerUnit <= 0) return '0'
  return String(Number((quota / quotaPerUnit).toFixed(6)))
}

export type QuotaMode = 'add' | 'subtract' | 'override'

/** The add_quota body for POST /api/user/manage, or what is wrong with the amount. */
export function quotaChange(id: number, mode: QuotaMode, dollars: string, quotaPerUnit: number): { body: { id: number; action: 'add_quota'; mode: QuotaMode; value: number } } | { error: 'amount' | 'positive' } {
  const amount = parseAmount(dollars)
  if (amount === undefined) return { error: 'amount' }
  const value = dollarsToQuota(amount, quotaPerUnit)
  if (mode !== 'override' && value <= 0) return { error: 'positive' }
  return { body: { id, action: 'add_quota', mode, value } }
}
