import type { OptionStore } from '../../options/store'
import { field, type ProviderProfile } from './profile'

/** The built-in providers of new-api's `/api/oauth/:provider`; bindings store these names. */
const OAUTH_PROVIDERS = ['github', 'discord', 'linuxdo', 'oidc'] as const
export type OAuthProviderName = (typeof OAUTH_PROVIDERS)[number]
export const isOAuthProvider = (name: string): name is OAuthProviderName => (OAUTH_PROVIDERS as readonly string[]).includes(name)

/** Reads a protected resource with the access token (through the outbound guard); throws on a non-2xx answer. */
type ResourceReader = (url: string) => Promise<unknown>

/** A plain OAuth 2 provider: fixed endpoints (PROVIDER_ENDPOINTS may move their hosts) and a profile read. */
export interface FixedProvider {
  label: string
  authorizationEndpoint: string
  tokenEndpoint: string
  scope: string
  /** how the client authenticates at the token endpoint, as the provider documents it */
  clientAuth: 'basic' | 'post'
  options: { enabled: string; clientId: string; clientSecret: string }
  /** the signed-in account, read with the access token; throws a message for an account that may not sign in */
  profile(read: ResourceReader, options: OptionStore): Promise<ProviderProfile>
}

const asRecord = (value: unknown): Record<string, unknown> => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {})

/** An account the provider's settings keep out (LinuxDO's trust level). */
export class ProfileRefused extends Error {}

// https://docs.github.com/en/apps/oauth-apps/building-oauth-apps/authorizing-oauth-apps
const github: FixedProvider = {
  label: 'GitHub',
  authorizationEndpoint: 'https://github.com/login/oauth/authorize',
  tokenEndpoint: 'https://github.com/login/oauth/access_token',
  scope: 'read:user user:email',
  clientAuth: 'post',
  options: { enabled: 'GitHubOAuthEnabled', clientId: 'GitHubClientId', clientSecret: 'GitHubClientSecret' },
  async profile(read) {
    const user = asRecord(await read('https://api.github.com/user'))
    // the primary address, only when GitHub has verified it (GET /user/emails, scope user:email)
    const emails = await read('https://api.github.com/user/emails').catch(() => [])
    const primary = (Array.isArray(emails) ? emails : []).map(asRecord).find((e) => e.primary === true)
    const login = field(user, 'login')
    return {
      id: field(user, 'id'),
      username: login,
      displayName: field(user, 'name') || login,
      email: primary ? field(primary, 'email', 254) : '',
      emailVerified: primary?.verified === true,
    }
  },
}

// https://discord.com/developers/docs/topics/oauth2
const discord: FixedProvider = {
  label: 'Discord',
  authorizationEndpoint: 'https://discord.com/oauth2/authorize',
  tokenEndpoint: 'https://discord.com/api/oauth2/token',
  scope: 'identify email',
  clientAuth: 'basic',
  options: { enabled: 'discord.enabled', clientId: 'discord.client_id', clientSecret: 'discord.client_secret' },
  async profile(read) {
    const user = asRecord(await read('https://discord.com/api/users/@me'))
    const username = field(user, 'username')
    return {
      id: field(user, 'id'),
      username,
      displayName: field(user, 'global_name') || username,
      email: field(user, 'email', 254),
      emailVerified: user.verified === true,
    }
  },
}

// https://connect.linux.do (Discourse Connect's OAuth 2): the user's trust level gates sign-in
const linuxdo: FixedProvider = {
  label: 'LinuxDO',
  authorizationEndpoint: 'https://connect.linux.do/oauth2/authorize',
  tokenEndpoint: 'https://connect.linux.do/oauth2/token',
  scope: 'user',
  clientAuth: 'basic',
  options: { enabled: 'LinuxDOOAuthEnabled', clientId: 'LinuxDOClientId', clientSecret: 'LinuxDOClientSecret' },
  async profile(read, options) {
    const user = asRecord(await read('https://connect.linux.do/api/user'))
    const minimum = options.get<number>('LinuxDOMinimumTrustLevel')
    const level = typeof user.trust_level === 'number' ? user.trust_level : 0
    if (level < minimum) throw new ProfileRefused(`your LinuxDO trust level is ${level}; this instance needs ${minimum} or more`)
    if (user.active === false || user.silenced === true) throw new ProfileRefused('this LinuxDO account is inactive or silenced')
    const username = field(user, 'username')
    // LinuxDO does not say whether the address is verified: it is never stored
    return { id: field(user, 'id'), username, displayName: field(user, 'name') || username, email: field(user, 'email', 254), emailVerified: false }
  },
}

export const FIXED_PROVIDERS: Record<Exclude<OAuthProviderName, 'oidc'>, FixedProvider> = { github, discord, linuxdo }

const OIDC_OPTIONS = { enabled: 'oidc.enabled', clientId: 'oidc.client_id', clientSecret: 'oidc.client_secret' }

/** The option names of a provider's switch, client id and secret. */
export const optionsOf = (name: OAuthProviderName) => (name === 'oidc' ? OIDC_OPTIONS : FIXED_PROVIDERS[name].options)
