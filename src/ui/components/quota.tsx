import { formatAmount } from '../lib/format'
import { useI18n } from '../i18n'
import { useSession } from '../state/session'

/** Quota the instance's one way (DisplayInCurrencyEnabled): "$1.00", or "500,000" quota units. */
export function useQuotaFormat(): (quota: number) => string {
  const { locale } = useI18n()
  const { status } = useSession()
  const perUnit = status?.quota_per_unit ?? 500_000
  const inCurrency = status?.display_in_currency ?? true
  return (quota) => formatAmount(quota, perUnit, locale, inCurrency)
}

export function Quota({ value }: { value: number }) {
  const format = useQuotaFormat()
  return <span class="num">{format(value)}</span>
}
