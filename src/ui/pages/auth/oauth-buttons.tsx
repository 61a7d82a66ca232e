import { useState } from 'preact/hooks'
import type { Status } from '../../api/types'
import { Button } from '../../components/button'
import { errorText } from '../../components/alert'
import { useI18n } from '../../i18n'
import { enabledProviders, startOAuth } from '../../lib/oauth-providers'
import { TelegramWidget } from '../../components/telegram-widget'

/** "Continue with …" buttons for the login and register pages; nothing when no provider is on. */
export function OAuthButtons({ status }: { status: Status | null | undefined }) {
  const { t, locale } = useI18n()
  const [error, setError] = useState('')
  const providers = enabledProviders(status)
  const telegram = !!status?.telegram_oauth
  if (providers.length === 0 && !telegram) return null
  return (
    <div class="oauth-buttons" role="group" aria-label={t('oauth.buttons.label')}>
      {providers.map((p) => (
        <Button key={p.id} onClick={() => startOAuth(p.route).catch((e: unknown) => setError(errorText(e, t, locale)))}>
          {t('oauth.buttons.continueWith', { name: p.name })}
        </Button>
      ))}
      {telegram && <TelegramWidget botName={status!.telegram_bot_name ?? ''} script={status!.telegram_widget_url ?? ''} authUrl={`${location.origin}/oauth/telegram`} />}
      {error && <p role="alert">{error}</p>}
    </div>
  )
}
