import type { FieldRule } from '../../lib/option-form'

export type ProviderSectionId = 'github' | 'discord' | 'linuxdo' | 'oidc' | 'telegram' | 'wechat' | 'passkey'

/** A section of sections.ts (declared here, so the two files do not import each other). */
interface ProviderSection {
  id: ProviderSectionId
  fields: readonly (FieldRule & { secret?: boolean })[]
  callback?: string
}

/** The ways in, one section each (docs/accounts.md): new-api's option names, the callback URL to register. */
export const PROVIDER_SECTIONS: readonly ProviderSection[] = [
  { id: 'github', callback: '/oauth/github', fields: [{ key: 'GitHubOAuthEnabled' }, { key: 'GitHubClientId' }, { key: 'GitHubClientSecret', secret: true }] },
  { id: 'discord', callback: '/oauth/discord', fields: [{ key: 'discord.enabled' }, { key: 'discord.client_id' }, { key: 'discord.client_secret', secret: true }] },
  {
    id: 'linuxdo',
    callback: '/oauth/linuxdo',
    fields: [{ key: 'LinuxDOOAuthEnabled' }, { key: 'LinuxDOClientId' }, { key: 'LinuxDOClientSecret', secret: true }, { key: 'LinuxDOMinimumTrustLevel', min: 0 }],
  },
  {
    id: 'oidc',
    callback: '/oauth/oidc',
    fields: [{ key: 'oidc.enabled' }, { key: 'oidc.display_name' }, { key: 'oidc.well_known', url: true }, { key: 'oidc.client_id' }, { key: 'oidc.client_secret', secret: true }],
  },
  { id: 'telegram', fields: [{ key: 'TelegramOAuthEnabled' }, { key: 'TelegramBotName' }, { key: 'TelegramBotToken', secret: true }] },
  { id: 'wechat', fields: [{ key: 'WeChatAuthEnabled' }, { key: 'WeChatServerAddress', url: true }, { key: 'WeChatServerToken', secret: true }, { key: 'WeChatAccountQRCodeImageURL', url: true }] },
  { id: 'passkey', fields: [{ key: 'passkey.enabled' }] },
]

/** Provider options `/api/status` carries (the login page's buttons). */
export const PROVIDER_STATUS_KEYS = PROVIDER_SECTIONS.flatMap((section) => section.fields.filter((field) => !field.secret).map((field) => field.key))
