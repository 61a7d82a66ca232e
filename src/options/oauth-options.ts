import type { OptionDefinition } from './option-definition'

/** An absolute http(s) URL, or '' (unset). */
const urlOrEmpty = (value: unknown) => {
  const text = value as string
  if (text === '') return undefined
  try {
    const url = new URL(text)
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must be an http(s) URL'
    if (url.username || url.password) return 'must not carry credentials'
  } catch {
    return 'must be an absolute http(s) URL (or empty)'
  }
  return undefined
}
const shortText = (value: unknown) => ((value as string).length > 512 ? 'must be at most 512 characters' : undefined)
// a sealed secret: ~4/3 of the plaintext and the IV
const sealedText = (value: unknown) => ((value as string).length > 2048 ? 'must be at most 1,500 characters' : undefined)
const trustLevel = (value: unknown) => ((value as number) < 0 || (value as number) > 4 ? 'must be 0 to 4' : undefined)

const enabled = (what: string): OptionDefinition => ({ type: 'boolean', default: 'false', description: `sign-in and sign-up with ${what}` })
const clientId = (what: string): OptionDefinition => ({ type: 'string', default: '', description: `the client id of the ${what} OAuth app`, check: shortText })
const clientSecret = (what: string): OptionDefinition => ({ type: 'string', default: '', description: `the client secret of the ${what} OAuth app (stored encrypted, never shown)`, check: sealedText, secret: true })

/** The sign-in providers' settings (docs/accounts.md), under new-api's option names. */
export const OAUTH_OPTION_DEFINITIONS: Record<string, OptionDefinition> = {
  GitHubOAuthEnabled: enabled('GitHub'),
  GitHubClientId: clientId('GitHub'),
  GitHubClientSecret: clientSecret('GitHub'),
  'discord.enabled': enabled('Discord'),
  'discord.client_id': clientId('Discord'),
  'discord.client_secret': clientSecret('Discord'),
  LinuxDOOAuthEnabled: enabled('LinuxDO'),
  LinuxDOClientId: clientId('LinuxDO'),
  LinuxDOClientSecret: clientSecret('LinuxDO'),
  LinuxDOMinimumTrustLevel: { type: 'integer', default: '0', description: 'the lowest LinuxDO trust level (0–4) that may sign up or sign in', check: trustLevel },
  'oidc.enabled': enabled('the OpenID Connect provider'),
  'oidc.display_name': { type: 'string', default: '', description: "the OIDC button's name on the login page ('' = OIDC)", check: shortText },
  'oidc.client_id': clientId('OIDC'),
  'oidc.client_secret': clientSecret('OIDC'),
  // new-api's name (setting/system_setting/passkey.go); on by default here: passkeys worked before the switch existed
  'passkey.enabled': { type: 'boolean', default: 'true', description: 'users may add passkeys and sign in with them (off: stored passkeys are kept but not accepted)' },
  'oidc.well_known': { type: 'string', default: '', description: "the issuer's discovery document (https://issuer/.well-known/openid-configuration); its endpoints are used", check: urlOrEmpty },
}
