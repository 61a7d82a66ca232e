import { SelectField, TextAreaField, TextField } from '../../components/field'
import { modelChoices } from '../../components/model-choice'
import { useI18n } from '../../i18n'
import type { ChatSettings, SettingsError } from '../../lib/chat'
import type { ModelPrices } from '../../lib/model-choice'

interface Props {
  settings: ChatSettings
  /** undefined while loading */
  models: readonly string[] | undefined
  /** which models have a price; undefined while unknown */
  prices: ModelPrices | undefined
  errors: SettingsError
  onChange(next: Partial<ChatSettings>): void
}

/** Model, system prompt and the two sampling knobs people reach for. */
export function SettingsPanel({ settings, models, prices, errors, onChange }: Props) {
  const { t } = useI18n()
  const options = models ? modelChoices(models, prices, t) : [{ value: '', label: t('playground.modelsLoading') }]
  const message = (error: SettingsError[keyof SettingsError]) => (error ? t(`playground.error.${error}`) : undefined)
  return (
    <aside class="card pg-settings" aria-labelledby="pg-settings-title">
      <h2 id="pg-settings-title" class="pg-settings-title">
        {t('playground.settings')}
      </h2>
      <div class="form">
        <SelectField label={t('playground.model')} value={settings.model} options={options} disabled={!models} onValue={(model) => onChange({ model })} error={message(errors.model)} />
        <TextAreaField label={t('playground.system')} value={settings.system} onValue={(system) => onChange({ system })} rows={4} hint={t('playground.systemHint')} />
        <div class="form-row pg-knobs">
          <TextField
            label={t('playground.temperature')}
            value={settings.temperature}
            onValue={(temperature) => onChange({ temperature })}
            inputMode="decimal"
            autocomplete="off"
            hint={t('playground.temperatureHint')}
            error={message(errors.temperature)}
          />
          <TextField
            label={t('playground.maxTokens')}
            value={settings.maxTokens}
            onValue={(maxTokens) => onChange({ maxTokens })}
            inputMode="numeric"
            autocomplete="off"
            hint={t('playground.maxTokensHint')}
            error={message(errors.maxTokens)}
          />
        </div>
      </div>
    </aside>
  )
}
