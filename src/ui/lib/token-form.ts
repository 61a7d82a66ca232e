/**
 * The token form's logic, pure: what a token's status means right now, the form's values from a token, and the
 * checks that run before anything is sent (mirroring src/services/tokens/token-fields.ts) with the body they make.
 */
import { dollarsToQuota, fromLocalInput, quotaToDollars, toLocalInput } from './format'
import { parseAmount } from './validate'

/** new-api's token statuses (src/services/tokens/token-status.ts); 3 and 4 are set by the gateway. */
export const TOKEN_STATUS = { enabled: 1, disabled: 2, expired: 3, exhausted: 4 } as const
export const NEVER = -1
const NAME_MAX = 50

export type TokenState = keyof typeof TOKEN_STATUS

interface TokenLike {
  status: number
  expired_time: number
  remain_quota: number
  unlimited_quota: boolean
}

/**
 * What a token is now. The gateway marks a token expired or exhausted when it is next used, so an enabled
 * token past its time or out of quota is shown as such already.
 */
export function tokenState(token: TokenLike, now: number): TokenState {
  if (token.status === TOKEN_STATUS.disabled) return 'disabled'
  if (token.status === TOKEN_STATUS.expired || (token.expired_time !== NEVER && token.expired_time <= now)) return 'expired'
  if (token.status === TOKEN_STATUS.exhausted || (!token.unlimited_quota && token.remain_quota <= 0)) return 'exhausted'
  return 'enabled'
}

/** Why the server would refuse to enable the token as it stands (its own check, asked first), if it would. */
export function enableBlocker(token: TokenLike, now: number): 'expired' | 'exhausted' | undefined {
  if (token.expired_time !== NEVER && token.expired_time <= now) return 'expired'
  if (!token.unlimited_quota && token.remain_quota <= 0) return 'exhausted'
  return undefined
}

export interface TokenFormValues {
  name: string
  /** the quota in US dollars, as typed */
  dollars: string
  unlimited: boolean
  /** `<input type="datetime-local">` value; '' = never */
  expires: string
  limitModels: boolean
  /** model names, one a line (commas work too) */
  models: string
  /** IPs or CIDR ranges, one a line */
  allowIps: string
  /** '' = the user's own group */
  group: string
}

export interface EditedToken extends TokenLike {
  id: number
  name: string
  model_limits_enabled: boolean
  model_limits: string
  allow_ips: string
  group: string
}

const DEFAULT_DOLLARS = '10'

/** Up to six decimals, no trailing zeros: 0.246914, 10, 1.5. */
function dollarsText(quota: number, quotaPerUnit: number): string {
  return String(Number(quotaToDollars(quota, quotaPerUnit).toFixed(6)))
}

export function formFromToken(token: EditedToken | undefined, quotaPerUnit: number): TokenFormValues {
  if (!token) return { name: '', dollars: DEFAULT_DOLLARS, unlimited: false, expires: '', limitModels: false, models: '', allowIps: '', group: '' }
  return {
    name: token.name,
    dollars: dollarsText(token.remain_quota, quotaPerUnit),
    unlimited: token.unlimited_quota,
    expires: token.expired_time === NEVER ? '' : toLocalInput(token.expired_time),
    limitModels: token.model_limits_enabled,
    models: splitList(token.model_limits).join('\n'),
    allowIps: splitList(token.allow_ips).join('\n'),
    group: token.group,
  }
}

export type TokenField = 'name' | 'dollars' | 'expires' | 'models' | 'allowIps'
export type TokenFormError = 'required' | 'nameLength' | 'amount' | 'amountPositive' | 'amountTooLarge' | 'past' | 'modelsRequired' | 'modelName' | 'ip'

/** What `POST /api/token/` and `PUT /api/token/` take. */
export interface TokenBody {
  name: string
  remain_quota: number
  unlimited_quota: boolean
  expired_time: number
  model_limits_enabled: boolean
  model_limits: string
  allow_ips: string
  group: string
}

export type TokenCheck = { ok: true; body: TokenBody } | { ok: false; errors: Partial<Record<TokenField, TokenFormError>> }

export function splitList(text: string): string[] {
  return [...new Set(text.split(/[\n,]/).map((item) => item.trim()).filter(Boolean))]
}

const OCTET = '(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)'
const IPV4 = new RegExp(`^${OCTET}(\\.${OCTET}){3}$`)
const IPV6 = /^(?=.*:.*:)[0-9a-f:]*(:\d+\.\d+\.\d+\.\d+)?$/i

/** An IPv4/IPv6 address or CIDR range (the server has the last word; this catches typos before sending). */
export function isIpEntry(text: string): boolean {
  const [address = '', prefix, extra] = text.split('/')
  if (extra !== undefined) return false
  const v4 = IPV4.test(address)
  if (!v4 && !IPV6.test(address)) return false
  if (prefix === undefined) return true
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (v4 ? 32 : 128)
}

/**
 * Check the form and build the body. Creating needs a quota above zero; editing keeps the stored quota and
 * expiry as they are when their fields were left alone (no rounding through dollars, no "expiry in the past"
 * for a token that already expired).
 */
export function checkTokenForm(values: TokenFormValues, context: { now: number; quotaPerUnit: number; initial?: EditedToken }): TokenCheck {
  const { now, quotaPerUnit, initial } = context
  const before = initial ? formFromToken(initial, quotaPerUnit) : undefined
  const errors: Partial<Record<TokenField, TokenFormError>> = {}

  const name = values.name.trim()
  if (!name) errors.name = 'required'
  else if (name.length > NAME_MAX) errors.name = 'nameLength'

  let quota = initial?.remain_quota ?? 0
  const dollarsTouched = !before || values.dollars.trim() !== before.dollars
  if (dollarsTouched) {
    const dollars = parseAmount(values.dollars)
    const units = dollars === undefined ? undefined : dollarsToQuota(dollars, quotaPerUnit)
    const fits = units !== undefined && units <= Number.MAX_SAFE_INTEGER
    // unlimited: the amount is kept when it reads as one, and says nothing otherwise (its field is disabled)
    if (values.unlimited) quota = fits ? units : quota
    else if (units === undefined) errors.dollars = values.dollars.trim() ? 'amount' : 'required'
    else if (!fits) errors.dollars = 'amountTooLarge'
    else if (!initial && units <= 0) errors.dollars = 'amountPositive'
    else quota = units
  }

  let expiredTime = NEVER
  if (values.expires) {
    if (before && values.expires === before.expires) expiredTime = initial!.expired_time
    else {
      const seconds = fromLocalInput(values.expires)
      if (seconds === undefined) errors.expires = 'required'
      else if (seconds <= now) errors.expires = 'past'
      else expiredTime = seconds
    }
  }

  const models = splitList(values.models)
  if (values.limitModels && models.length === 0) errors.models = 'modelsRequired'
  else if (models.some((model) => /\s/.test(model) || model.length > 200)) errors.models = 'modelName'

  const ips = splitList(values.allowIps)
  if (ips.some((ip) => !isIpEntry(ip))) errors.allowIps = 'ip'

  if (Object.keys(errors).length > 0) return { ok: false, errors }
  return {
    ok: true,
    body: {
      name,
      remain_quota: quota,
      unlimited_quota: values.unlimited,
      expired_time: expiredTime,
      model_limits_enabled: values.limitModels,
      model_limits: models.join(','),
      allow_ips: ips.join('\n'),
      group: values.group,
    },
  }
}
