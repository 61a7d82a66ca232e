import { useI18n } from '../../i18n'
import { formatTime, timeZoneName } from '../../lib/format'

/**
 * A unix time, short (no year when it is this year's), in the browser's zone; the full time and the zone on
 * hover. `empty` when there is no time (0).
 */
export function Time({ seconds, empty }: { seconds: number; empty: string }) {
  const { t, locale } = useI18n()
  if (!seconds) return <span class="muted">{empty}</span>
  const date = new Date(seconds * 1000)
  const thisYear = date.getFullYear() === new Date().getFullYear()
  const text = new Intl.DateTimeFormat(locale, { ...(thisYear ? {} : { year: 'numeric' }), month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' }).format(date)
  return (
    <time dateTime={date.toISOString()} title={`${formatTime(seconds, locale)} · ${t('common.timezone', { zone: timeZoneName() })}`}>
      {text}
    </time>
  )
}
