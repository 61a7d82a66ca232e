import { useEffect, useState } from 'preact/hooks'
import { Link, useLocation, useParams } from 'wouter-preact'
import { api } from '../../api/client'
import { errorText } from '../../components/alert'
import { useI18n } from '../../i18n'
import { useSession } from '../../state/session'

/** The server route a callback page hands its query to: Telegram's widget has its own (new-api's) routes. */
const endpointOf = (provider: string) => (provider === 'telegram' ? '/api/oauth/telegram/login' : `/api/oauth/${encodeURIComponent(provider)}`)

/** `/oauth/telegram/bind`: where Telegram's widget on the profile sends the browser. */
export const TelegramBindPage = () => <CallbackPage endpoint="/api/oauth/telegram/bind" />

/**
 * `/oauth/<provider>`: the callback URL registered at the provider. It hands the provider's query to the server,
 * which checks it and signs in (or binds), then goes on to the dashboard (or back to the profile after a binding).
 */
export const OAuthCallbackPage = () => <CallbackPage />

function CallbackPage({ endpoint }: { endpoint?: string }) {
  const { t, locale } = useI18n()
  const { refresh, user } = useSession()
  const [, navigate] = useLocation()
  const { provider } = useParams<{ provider: string }>()
  const [error, setError] = useState('')
  useEffect(() => {
    const query = Object.fromEntries(new URLSearchParams(location.search))
    api
      .get<{ action: string }>(endpoint ?? endpointOf(provider), query)
      .then(async (outcome) => {
        await refresh()
        navigate(outcome.action === 'bind' ? '/profile' : '/dashboard', { replace: true })
      })
      .catch((e: unknown) => setError(errorText(e, t, locale)))
  }, [provider, endpoint])
  return (
    <>
      <h1>{t('oauth.callback.title')}</h1>
      {error ? (
        <>
          <p role="alert">{error}</p>
          <p class="form-foot">
            {/* a binding fails with its user still logged in: back to the profile it started from */}
            {user ? <Link href="/profile">{t('accounts.callback.backToProfile')}</Link> : <Link href="/login">{t('oauth.callback.back')}</Link>}
          </p>
        </>
      ) : (
        <p aria-live="polite">{t('oauth.callback.working')}</p>
      )}
    </>
  )
}
