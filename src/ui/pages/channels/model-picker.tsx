import { useId, useState } from 'preact/hooks'
import { api } from '../../api/client'
import { ErrorAlert } from '../../components/alert'
import { Button } from '../../components/button'
import { TextAreaField } from '../../components/field'
import { useI18n } from '../../i18n'
import { mergeNames, splitNames } from '../../lib/channel-form'

const SHOWN = 40

interface Props {
  value: string
  onValue(value: string): void
  error?: string
  /** what the upstream is asked with (POST /api/channel/fetch_models): the drawer's current fields, saved or not */
  upstream: { type: number; key: string; base_url: string; other: string; id?: number }
  /** the type's well-known models */
  suggested: readonly string[]
  /** what the suggestions are, when not just the type's well-known models */
  suggestedLabel?: string
}

/** The Models field, with the type's known models (or the upstream's, after "Fetch models") to add with one click. */
export function ModelPicker({ value, onValue, error, upstream, suggested, suggestedLabel }: Props) {
  const { t } = useI18n()
  const id = useId()
  const [fetched, setFetched] = useState<string[]>()
  const [failure, setFailure] = useState<unknown>()
  const [busy, setBusy] = useState(false)
  const current = splitNames(value)
  const source = fetched ?? suggested
  const missing = source.filter((model) => !current.includes(model))
  const add = (models: readonly string[]) => onValue(mergeNames(current, models).join(', '))

  const fetchModels = async () => {
    setBusy(true)
    setFailure(undefined)
    try {
      setFetched(await api.post<string[]>('/api/channel/fetch_models', upstream))
    } catch (err) {
      setFailure(err)
    } finally {
      setBusy(false)
    }
  }

  return (
    <div class="model-picker">
      <TextAreaField label={t('channels.field.models')} value={value} onValue={onValue} rows={3} hint={t('channels.field.modelsHint')} error={error} />
      <div class="model-picker-bar">
        <Button onClick={fetchModels} busy={busy}>
          {t('channels.models.fetch')}
        </Button>
        <span class="muted">{t('channels.models.fetchHint')}</span>
      </div>
      <ErrorAlert error={failure} />
      {source.length > 0 && (
        <div class="model-suggestions" role="group" aria-labelledby={`${id}-title`}>
          <div class="model-suggestions-head">
            <span class="field-hint" id={`${id}-title`}>
              {fetched ? t('channels.models.fromUpstream', { count: fetched.length }) : (suggestedLabel ?? t('channels.models.suggested'))}
            </span>
            {missing.length > 0 && (
              <Button variant="ghost" onClick={() => add(missing)}>
                {t('channels.models.addAll', { count: missing.length })}
              </Button>
            )}
          </div>
          {missing.slice(0, SHOWN).map((model) => (
            <button key={model} type="button" class="chip chip-button" aria-label={t('channels.models.add', { model })} onClick={() => add([model])}>
              + {model}
            </button>
          ))}
          {missing.length > SHOWN && <span class="muted">{t('channels.models.more', { count: missing.length - SHOWN })}</span>}
          {missing.length === 0 && <span class="muted">{t('channels.models.allAdded')}</span>}
        </div>
      )}
    </div>
  )
}
