import { api } from '../api/client'
import type { Status } from '../api/types'

/** A sign-in provider as the console shows it: the id bindings and routes use, and its name. */
export interface ProviderChoice {
  /** the binding type: `github`, …, `custom:<id>` */
  id: string
  /** the route's name: the same, or a custom provider's slug */
  route: string
  name: string
}

/** The names of new-api's binding types (a custom provider's `custom:<id>` is named by its number). */
const NAMES: Record<string, string> = { github: 'GitHub', discord: 'Discord', linuxdo: 'LinuxDO', oidc: 'OIDC', telegram: 'Telegram', wechat: 'WeChat' }

/** The name a binding type is shown by; OIDC by the button name root chose. */
export function providerName(id: string, status?: Status | null): string {
  if (id === 'oidc' && status?.oidc_display_name) return status.oidc_display_name
  const custom = status?.custom_oauth_providers?.find((p) => `custom:${p.id}` === id)
  return custom?.name ?? NAMES[id] ?? id
}

/** The redirecting providers `/api/status` says are on, in the login page's order. */
export function enabledProviders(status: Status | null | undefined): ProviderChoice[] {
  if (!status) return []
  const on: [string, boolean | undefined][] = [
    ['github', status.github_oauth],
    ['discord', status.discord_oauth],
    ['linuxdo', status.linuxdo_oauth],
    ['oidc', status.oidc_enabled],
  ]
  const builtIn = on.filter(([, enabled]) => enabled).map(([id]) => ({ id, route: id, name: providerName(id, status) }))
  const custom = (status.custom_oauth_providers ?? []).map((p) => ({ id: `custom:${p.id}`, route: p.slug, name: p.name }))
  return [...builtIn, ...custom]
}

/** Go to the provider: the server makes the state (kept in its cookie) and answers where to send the browser. */
export async function startOAuth(provider: string, action?: 'bind'): Promise<void> {
  const aff = action ? undefined : (new URLSearchParams(location.search).get('aff') ?? undefined)
  const start = await api.get<{ authorize_url: string }>('/api/oauth/state', { provider, action, aff })
  location.assign(start.authorize_url)
}

/** `GET /api/user/oauth/bindings` (and the admin's `/api/user/:id/oauth/bindings`). */
export interface Bindings {
  has_password: boolean
  bindings: { provider: string; external_id: string; created_time: number }[]
}

/** One line of the profile's "ways in": a provider that is on, or one still bound after it was switched off. */
export interface BindingLine {
  id: string
  name: string
  /** the route's name (what startOAuth takes) */
  route: string
  /** the provider's account id, when bound */
  externalId?: string
  /** the bind button: the provider is on and nothing of it is bound */
  canBind: boolean
  /** the unbind button works: the user keeps another way in (a password or another provider) */
  canUnbind: boolean
  /** how it binds: through the provider's redirect, or Telegram's widget on the page */
  kind: 'redirect' | 'telegram' | 'wechat'
}

export function bindingLines(status: Status | null | undefined, list: Bindings): BindingLine[] {
  const bound = new Map(list.bindings.map((b) => [b.provider, b.external_id]))
  const ways = list.bindings.length + (list.has_password ? 1 : 0)
  const line = (id: string, route: string, name: string, enabled: boolean): BindingLine => {
    const externalId = bound.get(id)
    const kind = id === 'telegram' || id === 'wechat' ? id : ('redirect' as const)
    return { id, route, name, externalId, canBind: enabled && externalId === undefined, canUnbind: externalId !== undefined && ways > 1, kind }
  }
  const lines = enabledProviders(status).map((p) => line(p.id, p.route, p.name, true))
  if (status?.telegram_oauth) lines.push(line('telegram', 'telegram', providerName('telegram', status), true))
  if (status?.wechat_login) lines.push(line('wechat', 'wechat', providerName('wechat', status), true))
  const shown = new Set(lines.map((l) => l.id))
  for (const b of list.bindings) if (!shown.has(b.provider)) lines.push(line(b.provider, b.provider, providerName(b.provider, status), false))
  return lines
}
