import { ErrorAlert } from '../../components/alert'
import { useQuotaFormat } from '../../components/quota'
import { useI18n } from '../../i18n'
import { formatNumber } from '../../lib/format'

/** `GET /api/log/stat` and `/api/log/self/stat`: the filter's billed rows, and the last minute's rate. */
export type { LogStat } from '../../../db/repos/logs'
import type { LogStat } from '../../../db/repos/logs'

/** Requests, tokens and quota (with dollars) of the rows the filters match. */
export function LogTotals({ stat, error }: { stat: LogStat | undefined; error: unknown }) {
  const { t, locale } = useI18n()
  const quota = useQuotaFormat()
  const value = (text: string | undefined) => text ?? <span class="skeleton totals-skeleton" aria-hidden="true" />
  return (
    <section class="log-totals" aria-label={t('logs.totals.label')}>
      <ErrorAlert error={error} />
      <dl>
        <div>
          <dt>{t('logs.totals.requests')}</dt>
          <dd>{value(stat && formatNumber(stat.count, locale))}</dd>
        </div>
        <div>
          <dt>{t('logs.totals.tokens')}</dt>
          <dd>{value(stat && formatNumber(stat.tokens, locale))}</dd>
        </div>
        <div>
          <dt>{t('logs.totals.quota')}</dt>
          <dd>{value(stat && quota(stat.quota))}</dd>
        </div>
      </dl>
    </section>
  )
}
