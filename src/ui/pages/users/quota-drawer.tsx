import { useId, useState } from 'preact/hooks'
import { api } from '../../api/client'
import type { User } from '../../api/types'
import { ErrorAlert } from '../../components/alert'
import { Button } from '../../components/button'
import { Drawer } from '../../components/drawer'
import { SelectField } from '../../components/field'
import { useQuotaFormat } from '../../components/quota'
import { useToast } from '../../components/toast'
import { useI18n } from '../../i18n'
import { quotaChange, type QuotaMode } from '../../lib/user-form'
import { useSession } from '../../state/session'
import { DollarField } from '../../components/dollar-field'

/** Add to, take from or set a user's balance (POST /api/user/manage, action add_quota), in US$. */
export function QuotaDrawer({ user, onClose, onSaved }: { user: User; onClose(): void; onSaved(): void }) {
  const { t } = useI18n()
  const toast = useToast()
  const formatQuota = useQuotaFormat()
  const perUnit = useSession().status?.quota_per_unit ?? 500_000
  const [mode, setMode] = useState<QuotaMode>('add')
  const [dollars, setDollars] = useState('')
  const [error, setError] = useState<string>()
  const [failure, setFailure] = useState<unknown>()
  const [busy, setBusy] = useState(false)
  const formId = useId()

  const submit = async (event: Event) => {
    event.preventDefault()
    const change = quotaChange(user.id, mode, dollars, perUnit)
    if ('error' in change) {
      setError(t(`users.error.${change.error}`))
      return
    }
    setError(undefined)
    setBusy(true)
    setFailure(undefined)
    try {
      const after = await api.post<{ quota: number }>('/api/user/manage', change.body)
      toast(t('users.toast.quota', { name: user.username, quota: formatQuota(after.quota) }))
      onSaved()
    } catch (failed) {
      setFailure(failed)
    } finally {
      setBusy(false)
    }
  }

  return (
    <Drawer
      title={t('users.quota.title', { name: user.username })}
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button type="submit" form={formId} variant="primary" busy={busy}>
            {t(`users.quota.submit.${mode}`)}
          </Button>
        </>
      }
    >
      <form id={formId} class="form" onSubmit={submit} noValidate>
        <p class="users-balance">
          {t('users.quota.current')} <strong>{formatQuota(user.quota)}</strong>
        </p>
        <SelectField
          label={t('users.quota.mode')}
          value={mode}
          onValue={(value) => setMode(value as QuotaMode)}
          options={(['add', 'subtract', 'override'] as const).map((value) => ({ value, label: t(`users.quota.mode.${value}`) }))}
        />
        <DollarField label={t('users.quota.amount')} value={dollars} onValue={setDollars} error={error} />
        <ErrorAlert error={failure} />
      </form>
    </Drawer>
  )
}
