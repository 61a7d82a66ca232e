import { useEffect, useRef, useState } from 'preact/hooks'
import { useI18n } from '../i18n'
import { useSession } from '../state/session'

interface TurnstileApi {
  render(el: HTMLElement, options: { sitekey: string; callback(token: string): void; 'expired-callback'(): void; language?: string }): string
  reset(id?: string): void
}

let loading: Promise<void> | undefined
/** The widget's script, added once, only when a page needs it (Turnstile on). */
function loadScript(src: string): Promise<void> {
  return (loading ??= new Promise<void>((resolve, reject) => {
    const script = document.createElement('script')
    script.src = src
    script.async = true
    script.onload = () => resolve()
    script.onerror = () => ((loading = undefined), reject(new Error('the Turnstile script did not load')))
    document.head.append(script)
  }))
}

/**
 * Turnstile's token for a form, when /api/status says it is on: `widget` renders Cloudflare's check, `token` is
 * its answer ('' until done; a token works once, so `reset` asks for a new one after each submit). Off: no widget,
 * and `query()` adds nothing.
 */
export function useTurnstile() {
  const { status } = useSession()
  const [token, setToken] = useState('')
  const [generation, setGeneration] = useState(0)
  const on = !!status?.turnstile_check
  const query = () => (on ? `?turnstile=${encodeURIComponent(token)}` : '')
  const reset = () => (setToken(''), setGeneration((n) => n + 1))
  const widget = on ? <TurnstileBox key={generation} siteKey={status!.turnstile_site_key ?? ''} script={status!.turnstile_script_url ?? ''} onToken={setToken} /> : null
  return { on, token, ready: !on || token !== '', query, reset, widget }
}

function TurnstileBox({ siteKey, script, onToken }: { siteKey: string; script: string; onToken(token: string): void }) {
  const { t, locale } = useI18n()
  const box = useRef<HTMLDivElement>(null)
  useEffect(() => {
    let cancelled = false
    void loadScript(script).then(() => {
      const api = (window as unknown as { turnstile?: TurnstileApi }).turnstile
      if (cancelled || !api || !box.current) return
      api.render(box.current, { sitekey: siteKey, callback: onToken, 'expired-callback': () => onToken(''), language: locale === 'zh-CN' ? 'zh-cn' : 'en' })
    })
    return () => void (cancelled = true)
  }, [siteKey, script])
  return <div class="turnstile" ref={box} role="group" aria-label={t('mail.turnstile')} />
}
