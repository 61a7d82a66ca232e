import { useState } from 'preact/hooks'
import { api } from '../../api/client'
import { ErrorAlert } from '../../components/alert'
import { Button } from '../../components/button'
import { TextField } from '../../components/field'
import { useToast } from '../../components/toast'
import { useI18n } from '../../i18n'
import { useSession } from '../../state/session'
import { useSubmit } from '../../state/use-submit'

/** Root's "send test mail" (POST /api/mail/test) with the saved SMTP settings; the server's SMTP error shown as is. */
export function TestMailForm() {
  const { t, locale } = useI18n()
  const { user } = useSession()
  const toast = useToast()
  const [email, setEmail] = useState(user?.email ?? '')
  const { busy, failure, run } = useSubmit()
  const send = (event: Event) => {
    event.preventDefault()
    void run(async () => {
      await api.post('/api/mail/test', { email: email.trim(), lang: locale })
      toast(t('mail.test.sent', { email: email.trim() }))
    })
  }
  return (
    <form class="form settings-test-mail" onSubmit={send} noValidate>
      <TextField label={t('mail.test.email')} type="email" value={email} onValue={setEmail} autocomplete="email" hint={t('mail.test.hint')} />
      <ErrorAlert error={failure} />
      <Button type="submit" busy={busy} disabled={!email.trim()}>
        {t('mail.test.submit')}
      </Button>
    </form>
  )
}
