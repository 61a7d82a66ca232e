import type { MessageKey } from '../i18n'

/** The payment routes' stable codes (src/payments, src/modules/payments), worded in the orders catalog. */
export const PAYMENT_CODES = [
  'already_paid',
  'order_closed',
  'unknown_order',
  'owner_missing',
  'amount_too_small',
  'amount_too_large',
  'unknown_method',
  'unknown_product',
  'provider_disabled',
  'provider_failed',
  'too_many_orders',
] as const

export function paymentErrorKey(code: string | undefined): MessageKey | undefined {
  return code && (PAYMENT_CODES as readonly string[]).includes(code) ? (`orders.error.${code}` as MessageKey) : undefined
}
