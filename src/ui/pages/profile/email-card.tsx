import { useState } from 'preact/hooks'
import { api } from '../../api/client'
import { ErrorAlert } from '../../components/alert'
import { Button } from '../../components/button'
import { TextField } from '../../components/field'
import { useToast } from '../../components/toast'
import { useI18n } from '../../i18n'
import { useSession, useUser } from '../../state/session'
import { useSubmit } from '../../state/use-submit'
import { useVerified } from './verify-dialog'

/**
 * The account's e-mail: a code to the new address (after a fresh secure verification), then the change. Only while
 * the instance can send mail.
 */
export function EmailCard() {
  const { t, locale } = useI18n()
  const user = useUser()
  const { status, refresh } = useSession()
  const toast = useToast()
  const { guard, dialog } = useVerified()
  const [email, setEmail] = useState('')
  const [code, setCode] = useState('')
  const [sentTo, setSentTo] = useState('')
  const { busy, failure, run } = useSubmit()
  if (!status?.email_change) return null

  const send = (event: Event) => {
    event.preventDefault()
    void run(() =>
      guard(async () => {
        await api.post('/api/user/email/code', { email: email.trim(), lang: locale })
        setSentTo(email.trim())
      }),
    )
  }
  const change = (event: Event) => {
    event.preventDefault()
    void run(() =>
      guard(async () => {
        await api.post('/api/oauth/email/bind', { email: sentTo, code: code.trim() })
        toast(t('messenger.email.changed'))
        setSentTo('')
        setEmail('')
        setCode('')
        await refresh()
      }),
    )
  }
  return (
    <section class="card" aria-labelledby="profile-email-title">
      <h2 id="profile-email-title">{t('messenger.email.title')}</h2>
      <p class="muted">{user.email ? t('messenger.email.current', { email: user.email }) : t('messenger.email.none')}</p>
      {sentTo ? (
        <form class="form" onSubmit={change}>
          <p>{t('messenger.email.sent', { email: sentTo })}</p>
          <TextField label={t('messenger.email.code')} value={code} onValue={setCode} autoComplete="one-time-code" maxLength={32} required />
          <ErrorAlert error={failure} />
          <Button type="submit" variant="primary" busy={busy} disabled={code.trim() === ''}>
            {t('messenger.email.change')}
          </Button>{' '}
          <Button variant="ghost" onClick={() => setSentTo('')}>
            {t('messenger.email.otherAddress')}
          </Button>
        </form>
      ) : (
        <form class="form" onSubmit={send}>
          <TextField label={t('messenger.email.new')} type="email" value={email} onValue={setEmail} autoComplete="email" maxLength={254} required />
          <ErrorAlert error={failure} />
          <Button type="submit" variant="primary" busy={busy} disabled={email.trim() === ''}>
            {t('messenger.email.send')}
          </Button>
        </form>
      )}
      {dialog}
    </section>
  )
}
