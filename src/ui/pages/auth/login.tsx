import { useState } from 'preact/hooks'
import { Link, useLocation } from 'wouter-preact'
import { ErrorAlert } from '../../components/alert'
import { Button } from '../../components/button'
import { useTurnstile } from '../../components/turnstile'
import { useI18n } from '../../i18n'
import { signInWithPasskey } from '../../lib/passkey'
import { useSession } from '../../state/session'
import { useSubmit } from '../../state/use-submit'
import { CredentialsForm } from './credentials-form'
import { afterLogin, logIn } from './login-after'
import { OAuthButtons } from './oauth-buttons'
import { TwoFactorStep } from './two-factor-step'

export function LoginPage() {
  const { t } = useI18n()
  const { status, refresh } = useSession()
  const [, navigate] = useLocation()
  const [flowToken, setFlowToken] = useState<string>()
  const passkey = useSubmit()
  const turnstile = useTurnstile()
  if (flowToken) return <TwoFactorStep flowToken={flowToken} onDone={() => afterLogin(refresh, navigate)} onBack={() => setFlowToken(undefined)} />
  const withPasskey = () =>
    passkey.run(async () => {
      await signInWithPasskey()
      await afterLogin(refresh, navigate)
    })
  return (
    <>
      <h1>{t('auth.login.title')}</h1>
      <p class="lead">{t('auth.login.lead')}</p>
      <CredentialsForm
        submitLabel={t('auth.login.submit')}
        onSubmit={async ({ username, password }) => setFlowToken(await logIn(username, password, refresh, navigate, turnstile.query()).finally(turnstile.reset))}
      >
        {turnstile.widget}
      </CredentialsForm>
      {status?.password_reset && (
        <p class="form-foot">
          <Link href="/reset">{t('mail.forgot')}</Link>
        </p>
      )}
      {status?.passkey_login !== false && (
        <>
          <p class="form-foot">{t('twofa.login.or')}</p>
          <ErrorAlert error={passkey.failure} />
          <Button variant="secondary" busy={passkey.busy} onClick={withPasskey}>
            {t('twofa.login.passkey')}
          </Button>
        </>
      )}
      <OAuthButtons status={status} />
      {status?.register_enabled && (
        <p class="form-foot">
          {t('auth.login.noAccount')} <Link href={`/register${location.search}`}>{t('auth.login.register')}</Link>
        </p>
      )}
    </>
  )
}
