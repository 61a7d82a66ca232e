import type { MessageKey } from '../i18n'

/** The plan routes' stable codes (src/subscriptions, src/modules/subscriptions), worded in the plans catalog. */
const PLAN_CODES = ['unknown_plan', 'plan_not_for_sale', 'purchase_limit', 'currency_unsupported', 'invalid_plan', 'unknown_user', 'unknown_subscription', 'unknown_group'] as const

export function planErrorKey(code: string | undefined): MessageKey | undefined {
  return code && (PLAN_CODES as readonly string[]).includes(code) ? (`plans.error.${code}` as MessageKey) : undefined
}
