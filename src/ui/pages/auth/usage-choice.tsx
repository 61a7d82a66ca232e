import { useI18n } from '../../i18n'

export type SetupUsage = 'self' | 'team' | 'public'
const USAGES: readonly SetupUsage[] = ['self', 'team', 'public']

/** Setup's one question: who the instance is for. The server sets self-use mode and sign-ups from the answer. */
export function UsageChoice({ value, onValue }: { value: SetupUsage; onValue(value: SetupUsage): void }) {
  const { t } = useI18n()
  return (
    <fieldset class="usage-choice">
      <legend class="field-label">{t('firstRun.usage.legend')}</legend>
      {USAGES.map((usage) => (
        <label key={usage} class={`usage-option${value === usage ? ' is-chosen' : ''}`}>
          <input type="radio" name="usage" value={usage} checked={value === usage} onChange={() => onValue(usage)} />
          <span>
            <strong>{t(`firstRun.usage.${usage}`)}</strong>
            <span class="field-hint">{t(`firstRun.usage.${usage}Hint`)}</span>
          </span>
        </label>
      ))}
    </fieldset>
  )
}
