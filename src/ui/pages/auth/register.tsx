import { useState } from 'preact/hooks'
import { Link, useLocation } from 'wouter-preact'
import { api } from '../../api/client'
import { Notice } from '../../components/alert'
import { TextField } from '../../components/field'
import { useI18n } from '../../i18n'
import { useSession } from '../../state/session'
import { CredentialsForm } from './credentials-form'
import { OAuthButtons } from './oauth-buttons'
import { logIn } from './login-after'
import { EmailCodeFields } from './email-code-fields'
import { useTurnstile } from '../../components/turnstile'

/** Self-registration where it is open; the invitation code comes prefilled from `?aff=`. */
export function RegisterPage() {
  const { t } = useI18n()
  const { status, refresh } = useSession()
  const [, navigate] = useLocation()
  const [affCode, setAffCode] = useState(() => new URLSearchParams(location.search).get('aff') ?? '')
  const [email, setEmail] = useState('')
  const [code, setCode] = useState('')
  const turnstile = useTurnstile()
  if (!status?.register_enabled) {
    return (
      <>
        <h1>{t('auth.register.title')}</h1>
        <Notice>{t('auth.register.closed')}</Notice>
        <p class="form-foot">
          <Link href="/login">{t('auth.login.title')}</Link>
        </p>
      </>
    )
  }
  return (
    <>
      <h1>{t('auth.register.title')}</h1>
      <p class="lead">{t('auth.register.lead')}</p>
      <CredentialsForm
        strict
        confirm
        submitLabel={t('auth.register.submit')}
        onSubmit={async ({ username, password }) => {
          const verified = status.email_verification ? { email: email.trim(), verification_code: code.trim() } : {}
          await api.post(`/api/user/register${turnstile.query()}`, { username, password, ...verified, ...(affCode.trim() ? { aff_code: affCode.trim() } : {}) }).finally(turnstile.reset)
          // a Turnstile token works once: with the check on, the login page asks for its own
          if (turnstile.on) navigate('/login')
          else await logIn(username, password, refresh, navigate)
        }}
      >
        {status.email_verification && <EmailCodeFields email={email} onEmail={setEmail} code={code} onCode={setCode} turnstile={turnstile} />}
        {turnstile.widget}
        <TextField label={t('auth.register.affCode')} value={affCode} onValue={setAffCode} hint={t('auth.register.affHint')} autocomplete="off" />
      </CredentialsForm>
      <OAuthButtons status={status} />
      <p class="form-foot">
        {t('auth.register.haveAccount')} <Link href="/login">{t('auth.login.title')}</Link>
      </p>
    </>
  )
}
