import { useState } from 'preact/hooks'
import { api } from '../../api/client'
import { ErrorAlert } from '../../components/alert'
import { Button } from '../../components/button'
import { Modal } from '../../components/dialog'
import { useI18n } from '../../i18n'
import { useApi } from '../../state/use-api'
import { formatTime, timeZoneName } from '../../lib/format'
import type { Channel } from './types'
import { upstreamFindings } from './upstream-check'

interface Detected {
  add_models: string[]
  remove_models: string[]
  last_check_time: number
}

/** One list of pending changes, each model ticked (all at first) to be applied. */
function ModelChoices({ legend, models, chosen, onToggle, labelFor }: { legend: string; models: string[]; chosen: Set<string>; onToggle(model: string): void; labelFor(model: string): string }) {
  if (models.length === 0) return null
  return (
    <fieldset class="upstream-models">
      <legend>{legend}</legend>
      {models.map((model) => (
        <label key={model} class="check">
          <input type="checkbox" checked={chosen.has(model)} aria-label={labelFor(model)} onChange={() => onToggle(model)} />
          <code>{model}</code>
        </label>
      ))}
    </fieldset>
  )
}

const toggled = (set: Set<string>, model: string) => {
  const next = new Set(set)
  if (!next.delete(model)) next.add(model)
  return next
}

/**
 * The upstream's model list against the channel's: the scheduled check's stored findings when there are some
 * (`settings`), else a fresh `/api/channel/upstream_updates/detect`; the ticked changes applied, or the ticked
 * additions ignored for good (`ignore_models`).
 */
export function UpstreamModelsDialog({ channel, onClose, onApplied }: { channel: Channel; onClose(): void; onApplied(): void }) {
  const { t, locale } = useI18n()
  const stored = upstreamFindings(channel)
  const [found, setFound] = useState<Detected | null>(stored.lastCheck > 0 ? { add_models: stored.detected, remove_models: stored.removed, last_check_time: stored.lastCheck } : null)
  const [add, setAdd] = useState<Set<string> | null>(found ? new Set(found.add_models) : null)
  const [remove, setRemove] = useState<Set<string> | null>(found ? new Set(found.remove_models) : null)
  const [busy, setBusy] = useState(false)
  const [failure, setFailure] = useState<unknown>()
  const [round, setRound] = useState(stored.lastCheck > 0 ? 0 : 1)
  const detect = useApi(async () => {
    if (round === 0) return null
    const fresh = await api.post<Detected>('/api/channel/upstream_updates/detect', { id: channel.id })
    setFound(fresh)
    setAdd(new Set(fresh.add_models))
    setRemove(new Set(fresh.remove_models))
    return fresh
  }, [channel.id, round])
  const chosen = (add?.size ?? 0) + (remove?.size ?? 0)
  const send = async (body: Record<string, unknown>) => {
    setBusy(true)
    setFailure(undefined)
    try {
      await api.post('/api/channel/upstream_updates/apply', { id: channel.id, ...body })
      onApplied()
    } catch (error) {
      setFailure(error)
    } finally {
      setBusy(false)
    }
  }
  const pending = found ? found.add_models.length + found.remove_models.length : 0
  return (
    <Modal title={t('upstream.title', { name: channel.name })} onClose={onClose}>
      {detect.loading && (
        <p class="muted" role="status" aria-live="polite">
          {t('upstream.checking')}
        </p>
      )}
      {found && !detect.loading && <p class="muted">{t('upstreamCheck.lastCheck', { time: `${formatTime(found.last_check_time, locale)} (${timeZoneName()})` })}</p>}
      <ErrorAlert error={failure ?? detect.error} />
      {found && !detect.loading && pending === 0 && <p role="status">{t('upstream.none')}</p>}
      {found && add && remove && !detect.loading && (
        <>
          <ModelChoices legend={t('upstream.added')} models={found.add_models} chosen={add} onToggle={(m) => setAdd(toggled(add, m))} labelFor={(model) => t('upstream.addModel', { model })} />
          <ModelChoices legend={t('upstream.removed')} models={found.remove_models} chosen={remove} onToggle={(m) => setRemove(toggled(remove, m))} labelFor={(model) => t('upstream.removeModel', { model })} />
        </>
      )}
      <div class="dialog-actions">
        <Button onClick={onClose}>{t('common.cancel')}</Button>
        <Button busy={detect.loading} onClick={() => setRound((n) => n + 1)}>
          {t('upstreamCheck.checkAgain')}
        </Button>
        {pending > 0 && (add?.size ?? 0) > 0 && (
          <Button busy={busy} onClick={() => send({ ignore_models: [...(add ?? [])] })}>
            {t('upstreamCheck.ignore')}
          </Button>
        )}
        {pending > 0 && (
          <Button variant="primary" busy={busy} disabled={chosen === 0} onClick={() => send({ add_models: [...(add ?? [])], remove_models: [...(remove ?? [])] })}>
            {t('upstream.apply', { count: chosen })}
          </Button>
        )}
      </div>
    </Modal>
  )
}
