import { Link, useLocation } from 'wouter-preact'
import { useI18n } from '../../i18n'
import { useSession } from '../../state/session'
import { CredentialsForm } from './credentials-form'
import { logIn } from './login-after'
import { OAuthButtons } from './oauth-buttons'

export function LoginPage() {
  const { t } = useI18n()
  const { status, refresh } = useSession()
  const [, navigate] = useLocation()
  return (
    <>
      <h1>{t('auth.login.title')}</h1>
      <p class="lead">{t('auth.login.lead')}</p>
      <CredentialsForm submitLabel={t('auth.login.submit')} onSubmit={({ username, password }) => logIn(username, password, refresh, navigate)} />
      <OAuthButtons status={status} />
      {status?.register_enabled && (
        <p class="form-foot">
          {t('auth.login.noAccount')} <Link href={`/register${location.search}`}>{t('auth.login.register')}</Link>
        </p>
      )}
    </>
  )
}
