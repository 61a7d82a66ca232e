import { useId, useState } from 'preact/hooks'
import { api } from '../../api/client'
import { ErrorAlert } from '../../components/alert'
import { Button } from '../../components/button'
import { Drawer } from '../../components/drawer'
import { TextField } from '../../components/field'
import { useI18n } from '../../i18n'
import { checkRedemptionFields, COUNT_MAX, type CreateRedemptionBody, type RedemptionFieldError, type RedemptionFields } from '../../lib/redemption'
import { useSession } from '../../state/session'
import { DollarField } from '../../components/dollar-field'

export interface CreatedCodes {
  keys: string[]
  body: CreateRedemptionBody
}

/** New codes: name, how many (1–100), the value of each in US$ and an optional expiry. */
export function CreateCodesDrawer({ onClose, onCreated }: { onClose(): void; onCreated(created: CreatedCodes): void }) {
  const { t } = useI18n()
  const perUnit = useSession().status?.quota_per_unit ?? 500_000
  const [fields, setFields] = useState<RedemptionFields>({ name: '', count: '1', dollars: '', expires: '' })
  const [errors, setErrors] = useState<Partial<Record<keyof RedemptionFields, RedemptionFieldError>>>({})
  const [failure, setFailure] = useState<unknown>()
  const [busy, setBusy] = useState(false)
  const formId = useId()
  const set = (name: keyof RedemptionFields) => (value: string) => {
    setFields((previous) => ({ ...previous, [name]: value }))
    setErrors((previous) => ({ ...previous, [name]: undefined }))
  }
  const message = (error: RedemptionFieldError | undefined) => (error ? t(`redemptions.error.${error}`, { max: COUNT_MAX }) : undefined)

  const submit = async (event: Event) => {
    event.preventDefault()
    const checked = checkRedemptionFields(fields, perUnit, Math.floor(Date.now() / 1000))
    if ('errors' in checked) {
      setErrors(checked.errors)
      return
    }
    setErrors({})
    setBusy(true)
    setFailure(undefined)
    try {
      const created = await api.post<{ keys: string[] }>('/api/redemption/', checked.body)
      onCreated({ keys: created.keys, body: checked.body })
    } catch (error) {
      setFailure(error)
    } finally {
      setBusy(false)
    }
  }

  return (
    <Drawer
      title={t('redemptions.create.title')}
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button type="submit" form={formId} variant="primary" busy={busy}>
            {t('redemptions.create.submit')}
          </Button>
        </>
      }
    >
      <form id={formId} class="form" onSubmit={submit} noValidate>
        <TextField label={t('redemptions.field.name')} value={fields.name} onValue={set('name')} autocomplete="off" required hint={t('redemptions.hint.name')} error={message(errors.name)} />
        <div class="form-row">
          <TextField label={t('redemptions.field.count')} type="number" min={1} max={COUNT_MAX} step={1} value={fields.count} onValue={set('count')} required error={message(errors.count)} />
          <DollarField label={t('redemptions.field.quota')} value={fields.dollars} onValue={set('dollars')} error={message(errors.dollars)} />
        </div>
        <TextField label={t('redemptions.field.expires')} type="datetime-local" value={fields.expires} onValue={set('expires')} hint={t('redemptions.hint.expires')} error={message(errors.expires)} />
        <ErrorAlert error={failure} />
      </form>
    </Drawer>
  )
}
