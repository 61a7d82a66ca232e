import { useEffect, useState } from 'preact/hooks'
import { Button } from '../../components/button'
import { SelectField, TextField } from '../../components/field'
import { useI18n } from '../../i18n'
import { draftOf, filtersOfDraft, LOG_TYPES, type DraftError, type LogFilterDraft, type LogFilters } from '../../lib/log-filters'

interface Props {
  filters: LogFilters
  admin: boolean
  onApply(filters: LogFilters): void
  onReset(): void
}

/** The filters as a form: checked on "Filter", then put in the URL by the page. Follows the URL when it changes. */
export function LogFilterForm({ filters, admin, onApply, onReset }: Props) {
  const { t } = useI18n()
  const [draft, setDraft] = useState<LogFilterDraft>(() => draftOf(filters))
  const [errors, setErrors] = useState<Partial<Record<keyof LogFilterDraft, DraftError>>>({})
  useEffect(() => {
    setDraft(draftOf(filters))
    setErrors({})
  }, [filters])
  const field = (name: keyof LogFilterDraft) => ({ value: draft[name], onValue: (value: string) => setDraft((d) => ({ ...d, [name]: value })) })
  const message = (error: DraftError | undefined) =>
    error === 'range' ? t('logs.filter.error.range') : error === 'channel' ? t('logs.filter.error.channel') : error ? t('logs.filter.error.time') : undefined

  const submit = (event: Event) => {
    event.preventDefault()
    const checked = filtersOfDraft(draft, filters.pageSize)
    setErrors(checked.errors)
    if (Object.keys(checked.errors).length === 0) onApply(checked.filters)
  }

  return (
    <form class="filters log-filters" onSubmit={submit} noValidate aria-label={t('logs.filter.label')}>
      <TextField label={t('logs.filter.from')} type="datetime-local" {...field('from')} error={message(errors.from)} />
      <TextField label={t('logs.filter.to')} type="datetime-local" {...field('to')} error={message(errors.to)} />
      <SelectField
        label={t('logs.filter.type')}
        {...field('type')}
        options={[0, ...LOG_TYPES].map((type) => ({ value: String(type), label: t(`logs.type.${type}` as 'logs.type.0') }))}
      />
      <TextField label={t('logs.filter.model')} {...field('model')} autocomplete="off" />
      <TextField label={t('logs.filter.token')} {...field('token')} autocomplete="off" />
      <TextField label={t('logs.filter.requestId')} {...field('requestId')} autocomplete="off" spellcheck={false} />
      {admin && <TextField label={t('logs.filter.username')} {...field('username')} autocomplete="off" />}
      {admin && <TextField label={t('logs.filter.channel')} inputMode="numeric" {...field('channel')} error={message(errors.channel)} />}
      <div class="filter-actions">
        <Button type="submit" variant="primary">
          {t('logs.filter.apply')}
        </Button>
        <Button onClick={onReset}>{t('logs.filter.clear')}</Button>
      </div>
    </form>
  )
}
