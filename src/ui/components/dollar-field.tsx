import { TextField } from './field'
import { useI18n } from '../i18n'
import { dollarsToQuota, formatNumber } from '../lib/format'
import { parseAmount } from '../lib/validate'
import { useSession } from '../state/session'

/** An amount typed in US$, with the quota units it makes shown under it ("= 500,000 quota units"). */
export function DollarField({ label, value, onValue, error, hint }: { label: string; value: string; onValue(value: string): void; error?: string; hint?: string }) {
  const { t, locale } = useI18n()
  const perUnit = useSession().status?.quota_per_unit ?? 500_000
  const dollars = parseAmount(value)
  const units = dollars === undefined ? undefined : t('users.hint.units', { units: formatNumber(dollarsToQuota(dollars, perUnit), locale) })
  return <TextField label={label} value={value} onValue={onValue} inputMode="decimal" autocomplete="off" error={error} hint={[units, hint].filter(Boolean).join(' · ') || undefined} />
}
