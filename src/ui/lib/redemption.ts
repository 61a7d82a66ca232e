/** Redemption codes in the console: their state, the create form's checks and the one-time CSV export. */
import { toCsv } from '../../csv'
import { dollarsToQuota, fromLocalInput, quotaToDollars } from './format'
import { parseAmount, parseWholeNumber } from './validate'

export const RedemptionStatus = { enabled: 1, disabled: 2, used: 3 } as const
export type RedemptionState = 'unused' | 'used' | 'disabled' | 'expired'

/** What a code is now: an enabled code past its expiry counts as expired. */
export function redemptionState(row: { status: number; expired_time: number }, nowSeconds: number): RedemptionState {
  if (row.status === RedemptionStatus.used) return 'used'
  if (row.status === RedemptionStatus.disabled) return 'disabled'
  if (row.expired_time > 0 && row.expired_time <= nowSeconds) return 'expired'
  return 'unused'
}

/** The masked code the list shows (`abcd************wxyz`), shortened to `abcd…wxyz`. */
export function shortHint(masked: string): string {
  const plain = masked.replace(/\*+/g, '')
  return plain.length === 8 && masked.includes('*') ? `${plain.slice(0, 4)}…${plain.slice(4)}` : masked
}

const NAME_MAX = 100
export const COUNT_MAX = 100

export interface RedemptionFields {
  name: string
  count: string
  /** US$ per code, as typed */
  dollars: string
  /** `<input type="datetime-local">` value, '' for never */
  expires: string
}

export type RedemptionFieldError = 'required' | 'nameLength' | 'count' | 'amount' | 'expiry'

export interface CreateRedemptionBody {
  name: string
  count: number
  quota: number
  expired_time?: number
}

/** The create body, or what is wrong with each field (checked as the server does). */
export function checkRedemptionFields(
  fields: RedemptionFields,
  quotaPerUnit: number,
  nowSeconds: number,
): { body: CreateRedemptionBody } | { errors: Partial<Record<keyof RedemptionFields, RedemptionFieldError>> } {
  const errors: Partial<Record<keyof RedemptionFields, RedemptionFieldError>> = {}
  const name = fields.name.trim()
  if (!name) errors.name = 'required'
  else if (name.length > NAME_MAX) errors.name = 'nameLength'
  const count = parseWholeNumber(fields.count)
  if (count === undefined || count < 1 || count > COUNT_MAX) errors.count = 'count'
  const dollars = parseAmount(fields.dollars)
  const quota = dollars === undefined ? 0 : dollarsToQuota(dollars, quotaPerUnit)
  if (quota < 1) errors.dollars = 'amount'
  let expiredTime: number | undefined
  if (fields.expires) {
    expiredTime = fromLocalInput(fields.expires)
    if (expiredTime === undefined || expiredTime <= nowSeconds) errors.expires = 'expiry'
  }
  if (Object.keys(errors).length > 0) return { errors }
  return { body: { name, count: count!, quota, ...(expiredTime ? { expired_time: expiredTime } : {}) } }
}

/** The codes just created as CSV: one row per code with its name, value in units and US$, and expiry (ISO, or empty for never). */
export function codesCsv(codes: readonly string[], body: CreateRedemptionBody, quotaPerUnit: number): string {
  const usd = Number(quotaToDollars(body.quota, quotaPerUnit).toFixed(6))
  const expires = body.expired_time ? new Date(body.expired_time * 1000).toISOString() : ''
  return toCsv([['name', 'code', 'quota', 'value_usd', 'expires_at'], ...codes.map((code) => [body.name, code, body.quota, usd, expires])])
}
