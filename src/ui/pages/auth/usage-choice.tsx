import { useId } from 'preact/hooks'
import { useI18n } from '../../i18n'

export type SetupUsage = 'self' | 'team' | 'public'
const USAGES: readonly SetupUsage[] = ['self', 'team', 'public']

/** Setup's one question: who the instance is for. The server sets self-use mode and sign-ups from the answer. */
export function UsageChoice({ value, onValue }: { value: SetupUsage; onValue(value: SetupUsage): void }) {
  const { t } = useI18n()
  const id = useId()
  return (
    <fieldset class="usage-choice">
      <legend>{t('firstRun.usage.legend')}</legend>
      {USAGES.map((usage) => (
        <div key={usage} class={`usage-option${value === usage ? ' is-chosen' : ''}`}>
          <input id={`${id}-${usage}`} type="radio" name="usage" value={usage} checked={value === usage} onChange={() => onValue(usage)} aria-describedby={`${id}-${usage}-hint`} />
          <div>
            <label for={`${id}-${usage}`}>{t(`firstRun.usage.${usage}`)}</label>
            <p id={`${id}-${usage}-hint`} class="field-hint">
              {t(`firstRun.usage.${usage}Hint`)}
            </p>
          </div>
        </div>
      ))}
    </fieldset>
  )
}
