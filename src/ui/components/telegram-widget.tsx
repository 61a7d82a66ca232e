import { useEffect, useRef } from 'preact/hooks'
import { useI18n } from '../i18n'

/**
 * Telegram's login widget (https://core.telegram.org/widgets/login): its script, added to this box with the bot's
 * name, draws Telegram's button; after the user confirms, Telegram sends the browser to `authUrl` with the signed
 * account data, which that page hands to the server. Loaded only where shown (the console's CSP allows its origin
 * only while Telegram sign-in is on).
 */
export function TelegramWidget({ botName, script, authUrl }: { botName: string; script: string; authUrl: string }) {
  const { t, locale } = useI18n()
  const box = useRef<HTMLDivElement>(null)
  useEffect(() => {
    const el = box.current
    if (!el || !script || !botName) return
    const tag = document.createElement('script')
    tag.async = true
    tag.src = script
    tag.setAttribute('data-telegram-login', botName)
    tag.setAttribute('data-size', 'large')
    tag.setAttribute('data-auth-url', authUrl)
    tag.setAttribute('data-request-access', 'write')
    tag.setAttribute('data-lang', locale === 'zh-CN' ? 'zh-hans' : 'en')
    el.replaceChildren(tag)
    return () => el.replaceChildren()
  }, [botName, script, authUrl, locale])
  return <div class="telegram-widget" ref={box} role="group" aria-label={t('messenger.telegram.widget')} />
}
