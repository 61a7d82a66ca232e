import { useMemo } from 'preact/hooks'
import { Link } from 'wouter-preact'
import { EmptyState } from '../../components/empty-state'
import { useQuotaFormat } from '../../components/quota'
import { useI18n } from '../../i18n'
import { formatDollars, formatNumber, quotaToDollars } from '../../lib/format'
import { OTHER, type Granularity, type Metric, type UsageSeries } from '../../lib/usage-series'
import { useSession } from '../../state/session'
import { UsageChart, type ChartSeries } from './usage-chart'

const METRICS: readonly { metric: Metric; title: 'dashboard.chart.requests' | 'dashboard.chart.tokens' | 'dashboard.chart.quota' }[] = [
  { metric: 'count', title: 'dashboard.chart.requests' },
  { metric: 'tokens', title: 'dashboard.chart.tokens' },
  { metric: 'quota', title: 'dashboard.chart.quota' },
]

interface Props {
  usage: UsageSeries | undefined
  loading: boolean
  stacked: boolean
  unit: Granularity
}

/** Requests, tokens and quota over time, one chart each, one series per model. */
export function UsageCharts({ usage, loading, stacked, unit }: Props) {
  const { t } = useI18n()
  if (usage && usage.totals.count === 0) {
    return (
      <EmptyState
        message={t('dashboard.chart.empty')}
        action={
          <Link href="/tokens" class="btn btn-secondary">
            {t('dashboard.chart.createToken')}
          </Link>
        }
      />
    )
  }
  return (
    <div class="charts">
      {METRICS.map(({ metric, title }) => (
        <MetricChart key={metric} metric={metric} title={title} usage={usage} loading={loading} stacked={stacked} unit={unit} />
      ))}
    </div>
  )
}

function MetricChart({ metric, title, usage, loading, stacked, unit }: Props & (typeof METRICS)[number]) {
  const { t, locale } = useI18n()
  const quota = useQuotaFormat()
  const status = useSession().status
  const perUnit = status?.quota_per_unit ?? 500_000
  const inCurrency = status?.display_in_currency ?? true
  const compact = new Intl.NumberFormat(locale, { notation: 'compact', maximumFractionDigits: 1 })
  const format = metric === 'quota' ? quota : (value: number) => formatNumber(value, locale)
  const tick = metric === 'quota' && inCurrency ? (value: number) => formatDollars(quotaToDollars(value, perUnit), locale) : (value: number) => compact.format(value)
  const series = useMemo<ChartSeries[]>(
    () =>
      usage?.models.map((name, i) => ({
        label: name === OTHER ? t('dashboard.chart.other') : name || t('dashboard.chart.noModel'),
        values: usage[metric][i]!,
        total: usage.modelTotals[i]![metric],
        neutral: name === OTHER,
      })) ?? [],
    [usage, metric, t],
  )
  const total = usage?.totals[metric] ?? 0
  const id = `chart-${metric}`
  return (
    <section class="card chart-card" aria-labelledby={id}>
      <div class="chart-head">
        <h3 id={id}>{t(title)}</h3>
        {usage && <span class="chart-total">{format(total)}</span>}
      </div>
      {!usage ? (
        <div class="chart-empty" aria-busy={loading ? true : undefined}>
          {loading ? <span class="skeleton chart-skeleton" aria-hidden="true" /> : null}
        </div>
      ) : (
        <>
          <p class="visually-hidden">
            {series.map((s) => `${s.label}: ${format(s.total)}`).join('; ')}
          </p>
          <UsageChart
            x={usage.x}
            series={series}
            stacked={stacked}
            unit={unit}
            locale={locale}
            timeLabel={t('dashboard.chart.time')}
            totalLabel={t('dashboard.chart.total')}
            format={format}
            tick={tick}
          />
        </>
      )}
    </section>
  )
}
