import { Link, useLocation } from 'wouter-preact'
import { useI18n } from '../../i18n'
import { useSession } from '../../state/session'
import { CredentialsForm } from './credentials-form'
import { logIn } from './login-after'
import { useTurnstile } from '../../components/turnstile'

export function LoginPage() {
  const { t } = useI18n()
  const { status, refresh } = useSession()
  const [, navigate] = useLocation()
  const turnstile = useTurnstile()
  return (
    <>
      <h1>{t('auth.login.title')}</h1>
      <p class="lead">{t('auth.login.lead')}</p>
      <CredentialsForm
        submitLabel={t('auth.login.submit')}
        onSubmit={({ username, password }) => logIn(username, password, refresh, navigate, turnstile.query()).finally(turnstile.reset)}
      >
        {turnstile.widget}
      </CredentialsForm>
      {status?.password_reset && (
        <p class="form-foot">
          <Link href="/reset">{t('mail.forgot')}</Link>
        </p>
      )}
      {status?.register_enabled && (
        <p class="form-foot">
          {t('auth.login.noAccount')} <Link href={`/register${location.search}`}>{t('auth.login.register')}</Link>
        </p>
      )}
    </>
  )
}
