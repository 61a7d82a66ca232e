import { useState } from 'preact/hooks'
import { Link } from 'wouter-preact'
import { api } from '../../api/client'
import { ErrorAlert, Notice } from '../../components/alert'
import { Button } from '../../components/button'
import { TextField } from '../../components/field'
import { useI18n } from '../../i18n'
import { checkCredentials } from '../../lib/validate'
import { useSubmit } from '../../state/use-submit'

/** new-api's `/user/reset?email=…&token=…`, the page the mailed link opens: choose the new password. */
export function ResetPasswordPage() {
  const { t } = useI18n()
  const params = new URLSearchParams(location.search)
  const email = params.get('email') ?? ''
  const token = params.get('token') ?? ''
  const [password, setPassword] = useState('')
  const [confirmation, setConfirmation] = useState('')
  const [problem, setProblem] = useState<string>()
  const [done, setDone] = useState(false)
  const { busy, failure, run } = useSubmit()
  if (!email || !token) return <Notice>{t('mail.reset.badLink')}</Notice>
  const submit = (event: Event) => {
    event.preventDefault()
    const found = checkCredentials({ username: 'x', password, confirm: confirmation })
    const first = found.password ?? found.confirm
    setProblem(first ? t(`auth.error.${first}`) : undefined)
    if (first) return
    void run(async () => {
      await api.post('/api/user/reset', { email, token, password })
      setDone(true)
    })
  }
  return (
    <>
      <h1>{t('mail.reset.title')}</h1>
      <p class="lead">{t('mail.reset.lead')}</p>
      {done ? (
        <Notice>{t('mail.reset.done')}</Notice>
      ) : (
        <form class="form" onSubmit={submit} noValidate>
          <TextField label={t('auth.password')} type="password" value={password} onValue={setPassword} autocomplete="new-password" required hint={t('auth.passwordHint')} error={problem} />
          <TextField label={t('auth.confirmPassword')} type="password" value={confirmation} onValue={setConfirmation} autocomplete="new-password" required />
          <ErrorAlert error={failure} />
          <Button type="submit" variant="primary" busy={busy}>
            {t('mail.reset.submit')}
          </Button>
        </form>
      )}
      <p class="form-foot">
        <Link href="/login">{t('mail.backToLogin')}</Link>
      </p>
    </>
  )
}
