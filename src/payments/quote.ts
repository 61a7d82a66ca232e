import { GatewayError } from '../errors'
import type { PaymentDeps } from './types'

/** Most US$ of quota one order may buy. */
const MAX_TOPUP_AMOUNT = 1_000_000

export interface Quote {
  /** US$ of quota asked for */
  amount: number
  /** quota credited when paid */
  quota: number
  /** what is paid, in the currency's minor unit (cents, fen) */
  moneyCents: number
  currency: 'CNY' | 'USD'
  /** the share of the price paid (1 = no discount) */
  discount: number
}

type QuoteDeps = Pick<PaymentDeps, 'options'>

/** The amounts' discounts: amount → share paid. */
export function discounts(deps: QuoteDeps): Record<string, number> {
  return deps.options.get<Record<string, number>>('AmountDiscount')
}

export function presetAmounts(deps: QuoteDeps): number[] {
  try {
    return JSON.parse(deps.options.get<string>('AmountOptions')) as number[]
  } catch {
    return []
  }
}

const groupRatio = (deps: QuoteDeps, group: string): number => deps.options.get<Record<string, number>>('TopupGroupRatio')[group] ?? 1

/**
 * What `amount` US$ of quota costs a user of `group` through EPay (CNY at `Price`) or Stripe (US$ at
 * `StripeUnitPrice`): amount × unit price × the group's top-up ratio × the amount's discount, rounded to the
 * cent. The quota is amount × QuotaPerUnit. Below the minimum, or less than a cent: 400.
 */
export function quoteTopUp(deps: QuoteDeps, provider: 'epay' | 'stripe', amount: number, group: string): Quote {
  const minimum = deps.options.get<number>(provider === 'epay' ? 'MinTopUp' : 'StripeMinTopUp')
  if (!Number.isSafeInteger(amount) || amount < minimum) throw new PaymentError('amount_too_small', `the amount must be a whole number of at least ${minimum}`, 'amount')
  if (amount > MAX_TOPUP_AMOUNT) throw new PaymentError('amount_too_large', `the amount must be at most ${MAX_TOPUP_AMOUNT}`, 'amount')
  const unitPrice = deps.options.get<number>(provider === 'epay' ? 'Price' : 'StripeUnitPrice')
  const discount = discounts(deps)[String(amount)] ?? 1
  // scaled by 1e6 before rounding so that 10 × 7.3 × 0.95 is 6935 cents, not 6934.999…
  const moneyCents = Math.round(Math.round(amount * unitPrice * groupRatio(deps, group) * discount * 1e6) / 1e4)
  if (moneyCents < 1) throw new PaymentError('amount_too_small', 'this amount costs less than one cent: choose a larger one', 'amount')
  const quota = Math.floor(amount * deps.options.get<number>('QuotaPerUnit'))
  return { amount, quota, moneyCents, currency: provider === 'epay' ? 'CNY' : 'USD', discount }
}

/** A payment refusal with a stable code (the console words it from the code). */
export class PaymentError extends GatewayError {
  constructor(code: string, message: string, param?: string, status = 400) {
    super(status, code, message, param, undefined, { code })
  }
}
