import { CheckboxField, TextAreaField } from '../../components/field'
import { useI18n } from '../../i18n'
import { splitList } from '../../lib/token-form'

interface Props {
  enabled: boolean
  models: string
  /** the models the user's group can call, offered as one-click additions */
  suggestions: readonly string[] | undefined
  error?: string
  onEnabled(enabled: boolean): void
  onModels(models: string): void
}

/** "Limit models" and, when ticked, the list (one a line) with the callable models offered as buttons. */
export function ModelLimits({ enabled, models, suggestions, error, onEnabled, onModels }: Props) {
  const { t } = useI18n()
  const listed = new Set(splitList(models))
  const offered = (suggestions ?? []).filter((model) => !listed.has(model))
  const add = (model: string) => onModels([...listed, model].join('\n'))
  return (
    <div class="model-limits">
      <CheckboxField label={t('tokens.form.limitModels')} hint={t('tokens.form.limitModelsHint')} checked={enabled} onChecked={onEnabled} />
      {enabled && (
        <>
          <TextAreaField label={t('tokens.form.models')} hint={t('tokens.form.modelsHint')} value={models} onValue={onModels} error={error} rows={4} spellcheck={false} autocomplete="off" />
          {offered.length > 0 && (
            <div class="model-suggestions" role="group" aria-label={t('tokens.form.suggestions')}>
              <p class="field-hint">{t('tokens.form.suggestions')}</p>
              <div class="model-suggestion-list">
                {offered.map((model) => (
                  <button key={model} type="button" class="chip chip-button" aria-label={t('tokens.form.addModel', { model })} onClick={() => add(model)}>
                    + {model}
                  </button>
                ))}
              </div>
            </div>
          )}
        </>
      )}
    </div>
  )
}
