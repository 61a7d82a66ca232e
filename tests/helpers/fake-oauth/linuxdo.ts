/**
 * LinuxDO Connect (connect.linux.do, Discourse's OAuth 2): authorize at /oauth2/authorize, the token at POST
 * /oauth2/token, the user at GET /api/user: `id`, `username`, `name`, `active`, `trust_level` (0–4), `silenced`.
 * Reached through PROVIDER_ENDPOINTS `{"linuxdo": <url>}`.
 */
import { startFakeOAuth, type FakeOAuth } from './plain-oauth'

export interface LinuxDOAccount {
  id: number
  username: string
  name?: string
  email?: string
  trust_level: number
  active?: boolean
  silenced?: boolean
}

export type FakeLinuxDO = FakeOAuth<LinuxDOAccount>

export function startFakeLinuxDO(client: { id: string; secret: string }, account: LinuxDOAccount): FakeLinuxDO {
  return startFakeOAuth(
    {
      authorizePath: '/oauth2/authorize',
      tokenPath: '/oauth2/token',
      userPath: '/api/user',
      user: (a) => ({ id: a.id, sub: String(a.id), username: a.username, login: a.username, name: a.name ?? a.username, email: a.email ?? '', avatar_template: '', active: a.active ?? true, trust_level: a.trust_level, silenced: a.silenced ?? false, external_ids: null }),
      unauthorized: { errors: ['unauthorized'] },
    },
    client,
    account,
  )
}
