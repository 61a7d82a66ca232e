import { api, type Page } from '../../api/client'
import type { LogRow } from '../../api/types'
import { ErrorAlert } from '../../components/alert'
import { useI18n } from '../../i18n'
import { formatNumber } from '../../lib/format'
import { LogTypeId } from '../../lib/log-filters'
import { trafficFigures } from '../../lib/traffic'
import { useApi } from '../../state/use-api'
import type { LogStat } from '../logs/totals'
import { Figure } from './figures'

/**
 * Success rate over the charts' range, and requests and tokens in the last minute (RPM, TPM): the log totals
 * (`/api/log/stat`, consume rows only) for what was served, and the error rows' count from one page of the log
 * list for what failed.
 */
export function TrafficFigures({ whole, start, end, version }: { whole: boolean; start: number; end: number; version: number }) {
  const { t, locale } = useI18n()
  const [list, stat] = whole ? ['/api/log/', '/api/log/stat'] : ['/api/log/self', '/api/log/self/stat']
  const state = useApi(async () => {
    const range = { start_timestamp: start, end_timestamp: end }
    const [served, failed] = await Promise.all([
      api.get<LogStat>(stat, { ...range, type: LogTypeId.consume }),
      api.get<Page<LogRow>>(list, { ...range, type: LogTypeId.error, p: 1, page_size: 1 }),
    ])
    return trafficFigures(served, failed.total)
  }, [whole, start, end, version])
  const figures = state.data
  const percent = new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 1 })
  return (
    <>
      <ErrorAlert error={state.error} />
      <div class="figures figures-traffic">
        <Figure
          label={t('dashboard.traffic.success')}
          value={figures && (figures.successRate === undefined ? '—' : percent.format(figures.successRate))}
          hint={figures && t('dashboard.traffic.failed', { count: formatNumber(figures.failed, locale) })}
        />
        <Figure label={t('dashboard.traffic.rpm')} value={figures && formatNumber(figures.rpm, locale)} hint={t('dashboard.traffic.lastMinute')} />
        <Figure label={t('dashboard.traffic.tpm')} value={figures && formatNumber(figures.tpm, locale)} hint={t('dashboard.traffic.lastMinute')} />
      </div>
    </>
  )
}
