import { useLocation } from 'wouter-preact'
import { api } from '../../api/client'
import { useI18n } from '../../i18n'
import { useSession } from '../../state/session'
import { CredentialsForm } from './credentials-form'
import { logIn } from './login-after'

/** First run: create root, then log in as root. */
export function SetupPage() {
  const { t } = useI18n()
  const { refresh, refreshStatus } = useSession()
  const [, navigate] = useLocation()
  return (
    <>
      <h1>{t('auth.setup.title')}</h1>
      <p class="lead">{t('auth.setup.lead')}</p>
      <CredentialsForm
        strict
        confirm
        submitLabel={t('auth.setup.submit')}
        onSubmit={async ({ username, password }) => {
          await api.post('/api/setup', { username, password, confirmPassword: password })
          await refreshStatus()
          await logIn(username, password, refresh, navigate)
        }}
      />
    </>
  )
}
