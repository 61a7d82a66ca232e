import { useState } from 'preact/hooks'
import { api, ApiError } from '../../api/client'
import type { Status } from '../../api/types'
import { Button } from '../../components/button'
import { useI18n } from '../../i18n'

interface OAuthStart {
  authorize_url: string
}

/** The providers `/api/status` says are on, with the name each button shows. */
function enabledProviders(status: Status | null | undefined): { id: string; name: string }[] {
  if (!status) return []
  const list: { id: string; name: string }[] = []
  if (status.github_oauth) list.push({ id: 'github', name: 'GitHub' })
  if (status.discord_oauth) list.push({ id: 'discord', name: 'Discord' })
  if (status.linuxdo_oauth) list.push({ id: 'linuxdo', name: 'LinuxDO' })
  if (status.oidc_enabled) list.push({ id: 'oidc', name: status.oidc_display_name || 'OIDC' })
  return list
}

/** Go to the provider: the server makes the state (kept in its cookie) and answers where to send the browser. */
async function startOAuth(provider: string, action?: 'bind'): Promise<void> {
  const aff = new URLSearchParams(location.search).get('aff') ?? undefined
  const start = await api.get<OAuthStart>('/api/oauth/state', { provider, action, aff })
  location.assign(start.authorize_url)
}

/** "Continue with …" buttons for the login and register pages; nothing when no provider is on. */
export function OAuthButtons({ status }: { status: Status | null | undefined }) {
  const { t } = useI18n()
  const [error, setError] = useState('')
  const providers = enabledProviders(status)
  if (providers.length === 0) return null
  return (
    <div class="oauth-buttons" role="group" aria-label={t('oauth.buttons.label')}>
      {providers.map((p) => (
        <Button key={p.id} onClick={() => startOAuth(p.id).catch((e: unknown) => setError(e instanceof ApiError ? e.message : String(e)))}>
          {t('oauth.buttons.continueWith', { name: p.name })}
        </Button>
      ))}
      {error && <p role="alert">{error}</p>}
    </div>
  )
}
