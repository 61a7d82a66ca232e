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

/** Self-registration where it is open; the invitation code comes prefilled from `?aff=`. */
export function RegisterPage() {
  const { t } = useI18n()
  const { status, refresh } = useSession()
  const [, navigate] = useLocation()
  const [affCode, setAffCode] = useState(() => new URLSearchParams(location.search).get('aff') ?? '')
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
          await api.post('/api/user/register', { username, password, ...(affCode.trim() ? { aff_code: affCode.trim() } : {}) })
          await logIn(username, password, refresh, navigate)
        }}
      >
        <TextField label={t('auth.register.affCode')} value={affCode} onValue={setAffCode} hint={t('auth.register.affHint')} autocomplete="off" />
      </CredentialsForm>
      <OAuthButtons status={status} />
      <p class="form-foot">
        {t('auth.register.haveAccount')} <Link href="/login">{t('auth.login.title')}</Link>
      </p>
    </>
  )
}
