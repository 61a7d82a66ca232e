import { useState } from 'preact/hooks'
import { api } from '../../api/client'
import { ErrorAlert } from '../../components/alert'
import { Button } from '../../components/button'
import { useToast } from '../../components/toast'
import { useI18n } from '../../i18n'
import { formatNumber } from '../../lib/format'
import { useApi } from '../../state/use-api'
import { useSubmit } from '../../state/use-submit'

interface AffinityStats {
  total: number
  shared: boolean
}

/** Root's view of the pinned sessions (GET /api/option/channel_affinity_cache) and a clear of them all. */
export function AffinityCacheCard() {
  const { t, locale } = useI18n()
  const toast = useToast()
  const [version, setVersion] = useState(0)
  const stats = useApi(() => api.get<AffinityStats>('/api/option/channel_affinity_cache'), [version])
  const { busy, failure, run } = useSubmit()
  const clear = () =>
    void run(async () => {
      const { deleted } = await api.delete<{ deleted: number }>('/api/option/channel_affinity_cache?all=true')
      toast(t('affinity.cleared', { count: formatNumber(deleted, locale) }))
      setVersion((v) => v + 1)
    })
  return (
    <div class="form settings-test-mail">
      <p class="muted" aria-live="polite">
        {stats.data ? t(stats.data.shared ? 'affinity.pinnedShared' : 'affinity.pinned', { count: formatNumber(stats.data.total, locale) }) : t('common.loading')}
      </p>
      <ErrorAlert error={stats.error ?? failure} />
      <Button variant="secondary" busy={busy} disabled={!stats.data?.total} onClick={clear}>
        {t('affinity.clear')}
      </Button>
    </div>
  )
}
