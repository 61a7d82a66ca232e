import { useState } from 'preact/hooks'
import { api } from '../../api/client'
import { ErrorAlert, Notice } from '../../components/alert'
import { Button } from '../../components/button'
import { TextField } from '../../components/field'
import type { useTurnstile } from '../../components/turnstile'
import { useI18n } from '../../i18n'

interface Props {
  email: string
  onEmail(value: string): void
  code: string
  onCode(value: string): void
  turnstile: ReturnType<typeof useTurnstile>
}

/** The address and the code mailed to it (GET /api/verification, in the console's language). */
export function EmailCodeFields({ email, onEmail, code, onCode, turnstile }: Props) {
  const { t, locale } = useI18n()
  const [busy, setBusy] = useState(false)
  const [sent, setSent] = useState(false)
  const [failure, setFailure] = useState<unknown>()
  const send = async () => {
    setBusy(true)
    setFailure(undefined)
    try {
      const query = turnstile.query()
      await api.get(`/api/verification${query || '?'}${query ? '&' : ''}${new URLSearchParams({ email: email.trim(), lang: locale })}`)
      setSent(true)
    } catch (error) {
      setFailure(error)
    } finally {
      setBusy(false)
      turnstile.reset()
    }
  }
  return (
    <>
      <TextField label={t('mail.email')} type="email" value={email} onValue={onEmail} autocomplete="email" required />
      <Button onClick={send} busy={busy} disabled={!email.trim() || !turnstile.ready}>
        {t('mail.sendCode')}
      </Button>
      {sent && <Notice>{t('mail.codeSent')}</Notice>}
      <ErrorAlert error={failure} />
      <TextField label={t('mail.code')} value={code} onValue={onCode} autocomplete="one-time-code" inputMode="numeric" required />
    </>
  )
}
