import type { FieldRule } from '../../lib/option-form'
import { PAYMENT_SECTIONS, type PaymentSectionId } from './payment-sections'
import { PROVIDER_SECTIONS, PROVIDER_STATUS_KEYS, type ProviderSectionId } from './provider-sections'

type SectionId = 'general' | 'registration' | 'rateLimits' | 'relay' | 'logs' | 'billing' | 'login' | 'mail' | 'emailRules' | 'turnstile' | 'affinity' | ProviderSectionId | PaymentSectionId

export interface SettingField extends FieldRule {
  /** quota units: the dollar value is shown beside them */
  quota?: boolean
  /** a password or key: typed hidden, shown empty (the server never sends it); left empty, the saved one stays */
  secret?: boolean
}

export interface SettingSection {
  id: SectionId
  fields: readonly SettingField[]
  /** a link to the page that edits the rest (the price tables) */
  pricingLink?: boolean
  /** a sign-in provider's callback path (`/oauth/github`): shown with the public address, to copy into the provider's app */
  callback?: string
}

/** The settings page, section by section. The price tables (ModelRatio …) are the pricing page's. */
export const SECTIONS: readonly SettingSection[] = [
  { id: 'general', fields: [{ key: 'SystemName' }, { key: 'ServerAddress', url: true }, { key: 'DisplayInCurrencyEnabled' }, { key: 'PublicPricingEnabled' }] },
  {
    id: 'registration',
    fields: [
      { key: 'RegisterEnabled' },
      { key: 'RegisterLimitPerHour', min: 0 },
      { key: 'QuotaForNewUser', min: 0, quota: true },
      { key: 'QuotaForInviter', min: 0, quota: true },
      { key: 'QuotaForInviterMaxInvitees', min: 0 },
      { key: 'QuotaForInvitee', min: 0, quota: true },
      // when a user is told their balance is low (their own threshold wins), and how often any notice may come
      { key: 'QuotaRemindThreshold', min: 0, quota: true },
      { key: 'NotifyLimitPerHour', min: 1 },
    ],
  },
  {
    id: 'rateLimits',
    fields: [
      { key: 'TokenRpmLimit', min: 0 },
      { key: 'TokenTpmLimit', min: 0 },
      { key: 'TokenConcurrencyLimit', min: 0 },
      { key: 'UserRpmLimit', min: 0 },
      { key: 'UserTpmLimit', min: 0 },
      { key: 'UserConcurrencyLimit', min: 0 },
      { key: 'GroupRateLimits' },
    ],
  },
  {
    id: 'relay',
    fields: [
      { key: 'RelayMaxAttempts', min: 1 },
      { key: 'RelayTimeoutSeconds', min: 1 },
      { key: 'RelayStreamIdleSeconds', min: 1 },
      { key: 'ChannelFailureThreshold', min: 1 },
      { key: 'ChannelProbeIntervalSeconds', min: 1 },
      { key: 'ChannelPrivateNetworksAllowed' },
    ],
  },
  {
    id: 'affinity',
    fields: [
      { key: 'channel_affinity_setting.enabled' },
      { key: 'channel_affinity_setting.default_ttl_seconds', min: 1 },
      { key: 'channel_affinity_setting.max_entries', min: 1 },
      { key: 'channel_affinity_setting.model_regex' },
      { key: 'channel_affinity_setting.groups' },
    ],
  },
  { id: 'logs', fields: [{ key: 'LogConsumeEnabled' }, { key: 'LogRetentionDays', min: 0 }] },
  {
    id: 'billing',
    fields: [
      { key: 'QuotaPerUnit', min: 1 },
      { key: 'DefaultMaxOutputTokens', min: 1 },
      { key: 'ModelMaxOutputTokens' },
      { key: 'MinOutputTokens', min: 1 },
      { key: 'ModelContextTokens' },
      { key: 'DefaultContextTokens', min: 1 },
      { key: 'MaxChoicesPerRequest', min: 1 },
      { key: 'ServiceTierRatio' },
      { key: 'HostedToolPrice' },
      { key: 'AnthropicBetaRatio' },
      { key: 'SelfUseModeEnabled' },
    ],
    pricingLink: true,
  },
  {
    id: 'login',
    fields: [
      { key: 'LoginFailuresPerAccount', min: 1 },
      { key: 'LoginFailuresPerAddress', min: 1 },
      { key: 'LoginBackoffMaxSeconds', min: 1 },
      { key: 'LoginFailureWindowSeconds', min: 1 },
      { key: 'PasswordHashConcurrency', min: 0 },
      { key: 'PasswordHashQueue', min: 0 },
    ],
  },
  {
    id: 'mail',
    fields: [{ key: 'SMTPServer' }, { key: 'SMTPPort', min: 1 }, { key: 'SMTPSSLEnabled' }, { key: 'SMTPAccount' }, { key: 'SMTPFrom' }, { key: 'SMTPToken', secret: true }],
  },
  {
    id: 'emailRules',
    fields: [
      { key: 'EmailVerificationEnabled' },
      { key: 'EmailDomainRestrictionEnabled' },
      { key: 'EmailDomainWhitelist' },
      { key: 'EmailAliasRestrictionEnabled' },
      { key: 'EmailCodeValidMinutes', min: 1 },
      { key: 'EmailCodeMaxAttempts', min: 1 },
      { key: 'EmailPerRecipientPerHour', min: 0 },
      { key: 'EmailPerClientPerHour', min: 0 },
    ],
  },
  { id: 'turnstile', fields: [{ key: 'TurnstileCheckEnabled' }, { key: 'TurnstileSiteKey' }, { key: 'TurnstileSecretKey', secret: true }] },
  ...PROVIDER_SECTIONS,
  ...PAYMENT_SECTIONS,
]

/** Edited on the pricing page, not here. */
export const PRICING_KEYS = new Set(['ModelRatio', 'CompletionRatio', 'CacheRatio', 'CreateCacheRatio', 'ModelPrice', 'GroupRatio'])

/** Options `/api/status` carries: after saving one, the session's status is refreshed (top bar, quota format). */
export const STATUS_KEYS = new Set([
  'SystemName', 'ServerAddress', 'QuotaPerUnit', 'RegisterEnabled', 'DisplayInCurrencyEnabled', 'PublicPricingEnabled',
  'SMTPServer', 'EmailVerificationEnabled', 'TurnstileCheckEnabled', 'TurnstileSiteKey',
  ...PROVIDER_STATUS_KEYS,
])

/** Every option a section shows. */
export const KNOWN_KEYS = new Set(SECTIONS.flatMap((section) => section.fields.map((field) => field.key)))
