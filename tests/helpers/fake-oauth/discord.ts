/**
 * Discord's OAuth 2 (https://discord.com/developers/docs/topics/oauth2): authorize at /oauth2/authorize, the token
 * at POST /api/oauth2/token, the user at GET /api/users/@me (scope identify, email: `email` and `verified`).
 * Reached through PROVIDER_ENDPOINTS `{"discord": <url>}`.
 */
import { startFakeOAuth, type FakeOAuth } from './plain-oauth'

export interface DiscordAccount {
  /** a snowflake, as text */
  id: string
  username: string
  global_name?: string
  email?: string
  verified?: boolean
}

export type FakeDiscord = FakeOAuth<DiscordAccount>

export function startFakeDiscord(client: { id: string; secret: string }, account: DiscordAccount): FakeDiscord {
  return startFakeOAuth(
    {
      authorizePath: '/oauth2/authorize',
      tokenPath: '/api/oauth2/token',
      userPath: '/api/users/@me',
      // the User object: https://discord.com/developers/docs/resources/user#user-object
      user: (a) => ({ id: a.id, username: a.username, discriminator: '0', global_name: a.global_name ?? null, avatar: null, mfa_enabled: false, locale: 'en-US', email: a.email ?? null, verified: a.verified ?? false, flags: 0, premium_type: 0, public_flags: 0 }),
      unauthorized: { message: '401: Unauthorized', code: 0 },
    },
    client,
    account,
  )
}
