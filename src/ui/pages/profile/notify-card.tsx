import { useEffect, useState } from 'preact/hooks'
import { api } from '../../api/client'
import { ErrorAlert } from '../../components/alert'
import { Button } from '../../components/button'
import { DollarField } from '../../components/dollar-field'
import { CheckboxField, SelectField, TextField } from '../../components/field'
import { useToast } from '../../components/toast'
import { useI18n } from '../../i18n'
import { dollarsToQuota, quotaToDollars } from '../../lib/format'
import { parseAmount } from '../../lib/validate'
import { useSession } from '../../state/session'
import { useApi } from '../../state/use-api'
import { useSubmit } from '../../state/use-submit'

/** GET /api/user/setting: the secret never comes back, only whether one is set. */
interface NotifySettings {
  notify_type: 'email' | 'webhook'
  quota_warning_threshold: number
  webhook_url: string
  webhook_secret_set: boolean
  notification_email: string
}

interface Form {
  type: 'email' | 'webhook'
  threshold: string
  url: string
  /** '' keeps the saved secret; typed: replaces it */
  secret: string
  clearSecret: boolean
  email: string
}

/** The threshold is stored in quota units and typed in US$, like every other amount in the console. */
const formOf = (s: NotifySettings, perUnit: number): Form => ({
  type: s.notify_type,
  threshold: s.quota_warning_threshold ? String(quotaToDollars(s.quota_warning_threshold, perUnit)) : '',
  url: s.webhook_url,
  secret: '',
  clearSecret: false,
  email: s.notification_email,
})

/** Profile → Notifications: how this user hears of a low balance (and root of channel events), and a test. */
export function NotifyCard() {
  const { t } = useI18n()
  const toast = useToast()
  const perUnit = useSession().status?.quota_per_unit ?? 500_000
  const [thresholdError, setThresholdError] = useState<string>()
  const loaded = useApi(() => api.get<NotifySettings>('/api/user/setting'), [])
  const [form, setForm] = useState<Form>()
  const save = useSubmit()
  const test = useSubmit()
  useEffect(() => {
    if (loaded.data) setForm(formOf(loaded.data, perUnit))
  }, [loaded.data, perUnit])
  const set = <K extends keyof Form>(key: K) => (value: Form[K]) => setForm((previous) => previous && { ...previous, [key]: value })

  const submit = async (event: Event) => {
    event.preventDefault()
    if (!form) return
    const dollars = form.threshold.trim() ? parseAmount(form.threshold) : 0
    setThresholdError(dollars === undefined ? t('notify.error.thresholdInvalid') : undefined)
    if (dollars === undefined) return
    await save.run(async () => {
      const body: Record<string, unknown> = {
        notify_type: form.type,
        quota_warning_threshold: dollarsToQuota(dollars, perUnit),
        webhook_url: form.url.trim(),
        notification_email: form.email.trim(),
      }
      if (form.clearSecret) body.webhook_secret = ''
      else if (form.secret) body.webhook_secret = form.secret
      const saved = await api.put<NotifySettings>('/api/user/setting', body)
      setForm(formOf(saved, perUnit))
      loaded.reload()
      toast(t('notify.saved'))
    })
  }
  const sendTest = () => test.run(async () => {
    await api.post('/api/user/setting/test')
    toast(t('notify.testSent'))
  })

  return (
    <section class="card" aria-labelledby="profile-notify-title">
      <h2 id="profile-notify-title">{t('notify.title')}</h2>
      <p class="muted">{t('notify.lead')}</p>
      <ErrorAlert error={loaded.error} />
      {form && (
        <form class="form" onSubmit={submit} noValidate>
          <SelectField
            label={t('notify.type')}
            value={form.type}
            options={[
              { value: 'email', label: t('notify.type.email') },
              { value: 'webhook', label: t('notify.type.webhook') },
            ]}
            onValue={(value) => set('type')(value as Form['type'])}
          />
          <DollarField label={t('notify.threshold')} value={form.threshold} onValue={(value) => (setThresholdError(undefined), set('threshold')(value))} hint={t('notify.thresholdHint')} error={thresholdError} />
          {form.type === 'email' ? (
            <TextField label={t('notify.email')} type="email" value={form.email} onValue={set('email')} autocomplete="email" hint={t('notify.emailHint')} />
          ) : (
            <>
              <TextField label={t('notify.url')} type="url" value={form.url} onValue={set('url')} required placeholder="https://" hint={t('notify.urlHint')} />
              <TextField
                label={t('notify.secret')}
                type="password"
                value={form.secret}
                onValue={set('secret')}
                autocomplete="off"
                placeholder={loaded.data?.webhook_secret_set && !form.clearSecret ? '********' : ''}
                hint={loaded.data?.webhook_secret_set ? t('notify.secretKept') : t('notify.secretHint')}
              />
              {loaded.data?.webhook_secret_set && <CheckboxField label={t('notify.secretClear')} checked={form.clearSecret} onChecked={set('clearSecret')} />}
            </>
          )}
          <ErrorAlert error={save.failure ?? test.failure} />
          <div class="profile-session-actions">
            <Button type="submit" variant="primary" busy={save.busy}>
              {t('notify.save')}
            </Button>
            <Button variant="secondary" busy={test.busy} onClick={sendTest}>
              {t('notify.test')}
            </Button>
          </div>
        </form>
      )}
    </section>
  )
}
