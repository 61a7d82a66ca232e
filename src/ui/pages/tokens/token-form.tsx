import { useState } from 'preact/hooks'
import { ErrorAlert } from '../../components/alert'
import { CheckboxField, SelectField, TextAreaField, TextField, type Choice } from '../../components/field'
import { useI18n } from '../../i18n'
import { dollarsToQuota, formatNumber, timeZoneName } from '../../lib/format'
import { checkTokenForm, formFromToken, type EditedToken, type TokenBody, type TokenField, type TokenFormError, type TokenFormValues } from '../../lib/token-form'
import { parseAmount } from '../../lib/validate'
import { ModelLimits } from './model-limits'

/** the value each error belongs to (ticking Unlimited or Limit models answers the quota's or the list's error) */
const FIELD_OF: Partial<Record<keyof TokenFormValues, TokenField>> = { name: 'name', dollars: 'dollars', unlimited: 'dollars', expires: 'expires', models: 'models', limitModels: 'models', allowIps: 'allowIps' }

export type Groups = Record<string, { ratio: number; desc: string }>

interface Props {
  /** the form's id, for a submit button outside it (the drawer's footer) */
  id: string
  initial?: EditedToken
  quotaPerUnit: number
  /** the user's own group, named in the "your group" choice */
  userGroup: string
  groups: Groups | undefined
  models: readonly string[] | undefined
  onSubmit(body: TokenBody): Promise<void>
  onBusy?(busy: boolean): void
}

/** A token's fields, checked before sending; the server's refusal shown as an alert under them. */
export function TokenForm({ id, initial, quotaPerUnit, userGroup, groups, models, onSubmit, onBusy }: Props) {
  const { t, locale } = useI18n()
  const [values, setValues] = useState<TokenFormValues>(() => formFromToken(initial, quotaPerUnit))
  const [errors, setErrors] = useState<Partial<Record<TokenField, TokenFormError>>>({})
  const [failure, setFailure] = useState<unknown>()
  /** a field's setter; editing a field takes its error away until the next submit */
  const set = <K extends keyof TokenFormValues>(key: K) => (value: TokenFormValues[K]) => {
    setValues((previous) => ({ ...previous, [key]: value }))
    const field = FIELD_OF[key]
    if (field) setErrors((previous) => (previous[field] ? { ...previous, [field]: undefined } : previous))
  }
  const message = (field: TokenField) => (errors[field] ? t(`tokens.error.${errors[field]!}`) : undefined)

  const submit = async (event: Event) => {
    event.preventDefault()
    const checked = checkTokenForm(values, { now: Math.floor(Date.now() / 1000), quotaPerUnit, initial })
    if (!checked.ok) {
      setErrors(checked.errors)
      const form = event.currentTarget as HTMLFormElement
      setTimeout(() => form.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus(), 0)
      return
    }
    setErrors({})
    setFailure(undefined)
    onBusy?.(true)
    try {
      await onSubmit(checked.body)
    } catch (error) {
      setFailure(error)
    } finally {
      onBusy?.(false)
    }
  }

  const dollars = parseAmount(values.dollars)
  const quotaHint = values.unlimited
    ? t('tokens.form.quotaHintUnlimited')
    : t('tokens.form.quotaHint', { units: formatNumber(dollars === undefined ? 0 : dollarsToQuota(dollars, quotaPerUnit), locale) })

  return (
    <form id={id} class="form token-form" onSubmit={submit} noValidate>
      <TextField label={t('tokens.form.name')} hint={t('tokens.form.nameHint')} value={values.name} onValue={set('name')} error={message('name')} maxLength={50} required autocomplete="off" />
      <div class="token-quota">
        <TextField
          label={t('tokens.form.quota')}
          hint={quotaHint}
          value={values.dollars}
          onValue={set('dollars')}
          error={values.unlimited ? undefined : message('dollars')}
          inputMode="decimal"
          disabled={values.unlimited}
          autocomplete="off"
        />
        <CheckboxField label={t('tokens.form.unlimited')} checked={values.unlimited} onChecked={set('unlimited')} />
      </div>
      <TextField label={t('tokens.form.expires')} hint={t('tokens.form.expiresHint', { zone: timeZoneName() })} type="datetime-local" value={values.expires} onValue={set('expires')} error={message('expires')} />
      <ModelLimits enabled={values.limitModels} models={values.models} suggestions={models} error={message('models')} onEnabled={set('limitModels')} onModels={set('models')} />
      <TextAreaField label={t('tokens.form.allowIps')} hint={t('tokens.form.allowIpsHint')} value={values.allowIps} onValue={set('allowIps')} error={message('allowIps')} rows={3} spellcheck={false} autocomplete="off" />
      <SelectField label={t('tokens.form.group')} hint={t('tokens.form.groupHint')} value={values.group} options={groupChoices(groups, userGroup, values.group, t)} onValue={set('group')} />
      <ErrorAlert error={failure} />
    </form>
  )
}

/** "Your group" (stored as '', following the user) first, then the other groups the user may choose. */
function groupChoices(groups: Groups | undefined, userGroup: string, current: string, t: ReturnType<typeof useI18n>['t']): Choice[] {
  const choices: Choice[] = [{ value: '', label: userGroup ? t('tokens.form.groupOwnNamed', { group: userGroup }) : t('tokens.form.groupOwn') }]
  const names = Object.keys(groups ?? {}).filter((name) => name !== userGroup || name === current)
  if (current && !names.includes(current)) names.push(current)
  for (const name of names.sort()) {
    const ratio = groups?.[name]?.ratio
    choices.push({ value: name, label: ratio === undefined ? name : t('tokens.form.groupOption', { name, ratio }) })
  }
  return choices
}
