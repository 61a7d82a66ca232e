import { useState } from 'preact/hooks'
import { api } from '../../api/client'
import { ErrorAlert } from '../../components/alert'
import { Button } from '../../components/button'
import { Modal } from '../../components/dialog'
import { useI18n } from '../../i18n'
import { useApi } from '../../state/use-api'
import type { Channel } from './types'

interface Detected {
  add_models: string[]
  remove_models: string[]
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

/** The upstream's model list against the channel's (`/api/channel/upstream_updates/detect`), applying the ticked changes. */
export function UpstreamModelsDialog({ channel, onClose, onApplied }: { channel: Channel; onClose(): void; onApplied(): void }) {
  const { t } = useI18n()
  const [add, setAdd] = useState<Set<string> | null>(null)
  const [remove, setRemove] = useState<Set<string> | null>(null)
  const [busy, setBusy] = useState(false)
  const [failure, setFailure] = useState<unknown>()
  const detect = useApi(async () => {
    const found = await api.post<Detected>('/api/channel/upstream_updates/detect', { id: channel.id })
    setAdd(new Set(found.add_models))
    setRemove(new Set(found.remove_models))
    return found
  }, [channel.id])
  const found = detect.data
  const chosen = (add?.size ?? 0) + (remove?.size ?? 0)
  const apply = async () => {
    setBusy(true)
    setFailure(undefined)
    try {
      await api.post('/api/channel/upstream_updates/apply', { id: channel.id, add_models: [...(add ?? [])], remove_models: [...(remove ?? [])] })
      onApplied()
    } catch (error) {
      setFailure(error)
    } finally {
      setBusy(false)
    }
  }
  return (
    <Modal title={t('upstream.title', { name: channel.name })} onClose={onClose}>
      {detect.loading && (
        <p class="muted" role="status" aria-live="polite">
          {t('upstream.checking')}
        </p>
      )}
      <ErrorAlert error={failure ?? detect.error} />
      {found && found.add_models.length + found.remove_models.length === 0 && <p role="status">{t('upstream.none')}</p>}
      {found && add && remove && (
        <>
          <ModelChoices legend={t('upstream.added')} models={found.add_models} chosen={add} onToggle={(m) => setAdd(toggled(add, m))} labelFor={(model) => t('upstream.addModel', { model })} />
          <ModelChoices legend={t('upstream.removed')} models={found.remove_models} chosen={remove} onToggle={(m) => setRemove(toggled(remove, m))} labelFor={(model) => t('upstream.removeModel', { model })} />
        </>
      )}
      <div class="dialog-actions">
        <Button onClick={onClose}>{t('common.cancel')}</Button>
        {found && found.add_models.length + found.remove_models.length > 0 && (
          <Button variant="primary" busy={busy} disabled={chosen === 0} onClick={apply}>
            {t('upstream.apply', { count: chosen })}
          </Button>
        )}
      </div>
    </Modal>
  )
}
