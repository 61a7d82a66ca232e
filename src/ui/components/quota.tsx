import { formatQuota } from '../lib/format'
import { useI18n } from '../i18n'
import { useSession } from '../state/session'

/** Quota always with its dollar value: "500,000 ($1.00)". */
export function useQuotaFormat(): (quota: number) => string {
  const { locale } = useI18n()
  const { status } = useSession()
  const perUnit = status?.quota_per_unit ?? 500_000
  return (quota) => formatQuota(quota, perUnit, locale)
}

export function Quota({ value }: { value: number }) {
  const format = useQuotaFormat()
  return <span class="num">{format(value)}</span>
}
