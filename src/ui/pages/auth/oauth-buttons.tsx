import { useState } from 'preact/hooks'
import type { Status } from '../../api/types'
import { Button } from '../../components/button'
import { errorText } from '../../components/alert'
import { useI18n } from '../../i18n'
import { enabledProviders, startOAuth } from '../../lib/oauth-providers'
import { TelegramWidget } from '../../components/telegram-widget'
import { WeChatCodeForm } from '../../components/wechat-code'
import { api } from '../../api/client'
import { useLocation } from 'wouter-preact'
import { useSession } from '../../state/session'

/** "Continue with …" buttons for the login and register pages; nothing when no provider is on. */
export function OAuthButtons({ status }: { status: Status | null | undefined }) {
  const { t, locale } = useI18n()
  const [error, setError] = useState('')
  const [wechatOpen, setWechatOpen] = useState(false)
  const { refresh } = useSession()
  const [, navigate] = useLocation()
  const providers = enabledProviders(status)
  const telegram = !!status?.telegram_oauth
  const wechat = !!status?.wechat_login
  if (providers.length === 0 && !telegram && !wechat) return null
  const signInWithWeChat = async (code: string) => {
    const aff = new URLSearchParams(location.search).get('aff') ?? undefined
    await api.get('/api/oauth/wechat', { code, aff })
    await refresh()
    navigate('/dashboard', { replace: true })
  }
  return (
    <div class="oauth-buttons" role="group" aria-label={t('oauth.buttons.label')}>
      {providers.map((p) => (
        <Button key={p.id} onClick={() => startOAuth(p.route).catch((e: unknown) => setError(errorText(e, t, locale)))}>
          {t('oauth.buttons.continueWith', { name: p.name })}
        </Button>
      ))}
      {telegram && <TelegramWidget botName={status!.telegram_bot_name ?? ''} script={status!.telegram_widget_url ?? ''} authUrl={`${location.origin}/oauth/telegram`} />}
      {wechat && (
        <Button aria-expanded={wechatOpen} onClick={() => setWechatOpen(!wechatOpen)}>
          {t('messenger.wechat.button')}
        </Button>
      )}
      {wechat && wechatOpen && <WeChatCodeForm qrcode={status!.wechat_qrcode ?? ''} submitLabel={t('messenger.wechat.signIn')} onCode={signInWithWeChat} />}
      {error && <p role="alert">{error}</p>}
    </div>
  )
}
