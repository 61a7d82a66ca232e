import { CheckboxField, TextAreaField, TextField } from '../../components/field'
import { useI18n } from '../../i18n'
import { formatDollars, quotaToDollars } from '../../lib/format'
import type { FieldValue, OptionEntry, OptionProblem } from '../../lib/option-form'
import { parseWholeNumber } from '../../lib/validate'
import type { SettingField } from './sections'

interface Props {
  entry: OptionEntry
  field: SettingField
  label: string
  hint?: string
  value: FieldValue
  problem?: OptionProblem
  /** QuotaPerUnit as saved, for the dollar value beside quota fields */
  quotaPerUnit: number
  onValue(value: FieldValue): void
}

/** One option as a labelled control of its type: a checkbox, a number, a URL or text, or JSON in a text area. */
export function OptionField({ entry, field, label, hint, value, problem, quotaPerUnit, onValue }: Props) {
  const { t, locale } = useI18n()
  const error = problem ? t(`settings.error.${problem}`, { min: field.min ?? 0 }) : undefined
  if (entry.type === 'boolean') return <CheckboxField label={label} hint={hint} checked={value === true} onChecked={onValue} />
  const text = String(value)
  if (entry.type === 'json') {
    return <TextAreaField label={label} hint={hint} error={error} value={text} onValue={onValue} rows={6} spellcheck={false} class="settings-json" />
  }
  if (entry.type === 'integer' || entry.type === 'number') {
    const units = field.quota ? parseWholeNumber(text) : undefined
    const dollars = units === undefined ? undefined : t('settings.hint.dollars', { dollars: formatDollars(quotaToDollars(units, quotaPerUnit), locale) })
    return (
      <TextField
        label={label}
        hint={[dollars, hint].filter(Boolean).join(' · ') || undefined}
        error={error}
        type="number"
        inputMode={entry.type === 'integer' ? 'numeric' : 'decimal'}
        min={field.min}
        step={entry.type === 'integer' ? 1 : 'any'}
        value={text}
        onValue={onValue}
      />
    )
  }
  if (field.secret) return <TextField label={label} hint={hint} error={error} type="password" value={text} onValue={onValue} autocomplete="new-password" />
  return <TextField label={label} hint={hint} error={error} type={field.url ? 'url' : 'text'} value={text} onValue={onValue} autocomplete="off" spellcheck={false} placeholder={field.url ? 'https://api.example.com' : undefined} />
}
