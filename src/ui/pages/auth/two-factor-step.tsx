import { useState } from 'preact/hooks'
import { api } from '../../api/client'
import { ErrorAlert } from '../../components/alert'
import { Button } from '../../components/button'
import { TextField } from '../../components/field'
import { useI18n } from '../../i18n'
import { useSubmit } from '../../state/use-submit'

/** The second step of a sign-in: a code from the authenticator app or a backup code. */
export function TwoFactorStep({ flowToken, onDone, onBack }: { flowToken: string; onDone(): Promise<void>; onBack(): void }) {
  const { t } = useI18n()
  const [code, setCode] = useState('')
  const { busy, failure, run } = useSubmit()
  const submit = async (event: Event) => {
    event.preventDefault()
    if (!code.trim()) return
    await run(async () => {
      await api.post('/api/user/login/2fa', { code: code.trim(), flow_token: flowToken })
      await onDone()
    })
  }
  return (
    <>
      <h1>{t('twofa.login.title')}</h1>
      <p class="lead">{t('twofa.login.lead')}</p>
      <form class="form" onSubmit={submit} noValidate>
        <TextField label={t('twofa.login.code')} value={code} onValue={setCode} autocomplete="one-time-code" inputMode="text" required autoFocus />
        <ErrorAlert error={failure} />
        <Button type="submit" variant="primary" busy={busy}>
          {t('twofa.login.submit')}
        </Button>
        <Button variant="ghost" onClick={onBack}>
          {t('twofa.login.back')}
        </Button>
      </form>
    </>
  )
}
