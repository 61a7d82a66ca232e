import { api } from '../../api/client'
import { ErrorAlert } from '../../components/alert'
import { Modal } from '../../components/dialog'
import { StatusDot } from '../../components/status-dot'
import { useI18n } from '../../i18n'
import { formatNumber } from '../../lib/format'
import { useApi } from '../../state/use-api'
import type { TestLine } from './types'

/** "Test all": every enabled channel tested by the server (four at a time), each one's verdict listed. */
export function TestAllDialog({ onClose }: { onClose(): void }) {
  const { t, locale } = useI18n()
  const run = useApi(() => api.get<TestLine[]>('/api/channel/test'), [])
  const lines = run.data
  const failed = lines?.filter((line) => !line.success).length ?? 0
  return (
    <Modal title={t('channels.testAll.title')} onClose={onClose}>
      {run.loading && (
        <p class="muted" role="status" aria-live="polite">
          {t('channels.testAll.running')}
        </p>
      )}
      <ErrorAlert error={run.error} />
      {lines && lines.length === 0 && <p class="muted">{t('channels.testAll.none')}</p>}
      {lines && lines.length > 0 && (
        <>
          <p role="status">{t('channels.testAll.summary', { count: lines.length, failed })}</p>
          <div class="table-wrap test-results">
            <table class="table">
              <caption class="visually-hidden">{t('channels.testAll.title')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('common.name')}</th>
                  <th scope="col">{t('channels.testAll.result')}</th>
                  <th scope="col" class="num">
                    {t('channels.col.responseTime')}
                  </th>
                  <th scope="col">{t('channels.testAll.message')}</th>
                </tr>
              </thead>
              <tbody>
                {lines.map((line) => (
                  <tr key={line.id}>
                    <td>{line.name}</td>
                    <td>
                      <StatusDot tone={line.success ? 'success' : 'danger'} label={t(line.success ? 'channels.testAll.passed' : 'channels.testAll.failed')} />
                    </td>
                    <td class="num">{line.success ? t('channels.ms', { ms: formatNumber(line.time_ms, locale) }) : '—'}</td>
                    <td class="wrap test-message">{line.message}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </Modal>
  )
}
