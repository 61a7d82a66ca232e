import { useState } from 'preact/hooks'
import { Link } from 'wouter-preact'
import { api } from '../../api/client'
import { ErrorAlert, Notice } from '../../components/alert'
import { Button } from '../../components/button'
import { TextField } from '../../components/field'
import { useTurnstile } from '../../components/turnstile'
import { useI18n } from '../../i18n'
import { useSubmit } from '../../state/use-submit'

/** new-api's `/reset`: ask for a reset link (the same answer whether the address has an account or not). */
export function ForgotPasswordPage() {
  const { t, locale } = useI18n()
  const [email, setEmail] = useState('')
  const [sent, setSent] = useState(false)
  const turnstile = useTurnstile()
  const { busy, failure, run } = useSubmit()
  const submit = (event: Event) => {
    event.preventDefault()
    void run(async () => {
      const query = turnstile.query()
      await api.get(`/api/reset_password${query || '?'}${query ? '&' : ''}${new URLSearchParams({ email: email.trim(), lang: locale })}`).finally(turnstile.reset)
      setSent(true)
    })
  }
  return (
    <>
      <h1>{t('mail.forgot.title')}</h1>
      <p class="lead">{t('mail.forgot.lead')}</p>
      <form class="form" onSubmit={submit} noValidate>
        <TextField label={t('mail.email')} type="email" value={email} onValue={setEmail} autocomplete="email" required />
        {turnstile.widget}
        <ErrorAlert error={failure} />
        {sent && <Notice>{t('mail.forgot.sent')}</Notice>}
        <Button type="submit" variant="primary" busy={busy} disabled={!email.trim() || !turnstile.ready}>
          {t('mail.forgot.submit')}
        </Button>
      </form>
      <p class="form-foot">
        <Link href="/login">{t('mail.backToLogin')}</Link>
      </p>
    </>
  )
}
