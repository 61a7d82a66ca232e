import { useMemo, useState } from 'preact/hooks'
import { api } from '../../api/client'
import { Role, type User } from '../../api/types'
import { ErrorAlert } from '../../components/alert'
import { Button } from '../../components/button'
import { PageHeader } from '../../components/page-header'
import { useI18n } from '../../i18n'
import { aggregateUsage, usageWindow, type UsageRow } from '../../lib/usage-series'
import { useApi } from '../../state/use-api'
import { useUser } from '../../state/session'
import { ChartControls, type ChartChoices } from './controls'
import { AccountFigures, RangeFigures, type CacheReads } from './figures'
import { FirstRunChecklist } from './first-run'
import { ChannelStats } from './channel-stats'
import { RecentErrors } from './recent-errors'
import { TrafficFigures } from './traffic'
import { UsageCharts } from './usage-charts'

const nowSeconds = () => Math.floor(Date.now() / 1000)

/** Key figures on top, usage over time by model below, then the latest errors. */
export function DashboardPage() {
  const { t, locale } = useI18n()
  const me = useUser()
  const admin = me.role >= Role.admin
  const [choices, setChoices] = useState<ChartChoices>({ scope: admin ? 'all' : 'mine', range: '7d', unit: 'day', stacked: true })
  const [now, setNow] = useState(nowSeconds)
  const [version, setVersion] = useState(0)
  const whole = admin && choices.scope === 'all'

  const self = useApi(() => api.get<User>('/api/user/self'), [version])
  const span = useMemo(() => usageWindow(choices.range, choices.unit, now), [choices.range, choices.unit, now])
  const rows = useApi(
    async () => ({ span, rows: await api.get<UsageRow[]>(whole ? '/api/data/' : '/api/data/self', { start_timestamp: span.start, end_timestamp: span.end }) }),
    [whole, span],
  )
  const cache = useApi(
    () => api.get<CacheReads>(whole ? '/api/data/cache_reads' : '/api/data/cache_reads/self', { start_timestamp: span.start, end_timestamp: span.end }),
    [whole, span],
  )
  // rows answer one window: until the new window's answer arrives, the charts wait rather than misplace them
  const current = rows.data?.span === span ? rows.data.rows : undefined
  const usage = useMemo(() => current && aggregateUsage(current, span.buckets, choices.unit), [current, span, choices.unit])

  const since = new Intl.DateTimeFormat(locale, choices.unit === 'hour' ? { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' } : { month: 'short', day: 'numeric' }).format(new Date(span.start * 1000))
  const hint = t(whole ? 'dashboard.period.all' : 'dashboard.period.mine', { since })
  const refresh = () => {
    setNow(nowSeconds())
    setVersion((v) => v + 1)
  }

  return (
    <div class="page-dashboard">
      <PageHeader
        title={t('nav.dashboard')}
        lead={t('dashboard.lead')}
        actions={
          <Button onClick={refresh} busy={rows.loading && current !== undefined}>
            {t('common.refresh')}
          </Button>
        }
      />
      {admin && <FirstRunChecklist />}
      <AccountFigures user={self.data} error={self.error} />
      <section class="section" aria-labelledby="dashboard-usage">
        <h2 id="dashboard-usage" class="section-title">
          {t('dashboard.usage.title')}
        </h2>
        <ChartControls admin={admin} choices={choices} onChange={setChoices} />
        <ErrorAlert error={rows.error} />
        <RangeFigures totals={usage?.totals} cache={cache.data} hint={hint} />
        <TrafficFigures whole={whole} start={span.start} end={span.end} version={version} />
        <UsageCharts usage={usage} loading={rows.loading} stacked={choices.stacked} unit={choices.unit} />
      </section>
      {whole && <ChannelStats start={span.start} end={span.end} version={version} />}
      <RecentErrors whole={whole} username={admin && !whole ? me.username : undefined} version={version} />
    </div>
  )
}
