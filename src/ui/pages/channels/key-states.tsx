import { api } from '../../api/client'
import { ErrorAlert } from '../../components/alert'
import { StatusDot } from '../../components/status-dot'
import { useI18n } from '../../i18n'
import { useApi } from '../../state/use-api'
import type { KeyState } from './types'

/** A pool's keys, masked, each in or out of the relay's rotation (an upstream called it dead). */
export function KeyStates({ channelId }: { channelId: number }) {
  const { t } = useI18n()
  const keys = useApi(() => api.get<KeyState[]>(`/api/channel/${channelId}/keys`), [channelId])
  const out = keys.data?.filter((key) => key.out_of_rotation).length ?? 0
  return (
    <section class="key-states" aria-labelledby="key-states-title">
      <h3 id="key-states-title">{t('channels.keys.title')}</h3>
      <ErrorAlert error={keys.error} />
      {keys.loading && !keys.data && <p class="muted">{t('common.loading')}</p>}
      {keys.data && (
        <>
          <p class="muted">{t('channels.keys.summary', { count: keys.data.length, out })}</p>
          <ul class="key-list">
            {keys.data.map((key) => (
              <li key={key.position}>
                <span>{t('channels.keys.key', { position: key.position })}</span>
                <code>{key.hint}</code>
                <StatusDot tone={key.out_of_rotation ? 'danger' : 'success'} label={t(key.out_of_rotation ? 'channels.keys.out' : 'channels.keys.in')} />
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  )
}
