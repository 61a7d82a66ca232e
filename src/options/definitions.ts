import { OUTPUT_OPTIONS } from './output-options'
import { MAIL_OPTIONS } from './mail-options'
import { PAYMENT_OPTIONS } from './payment-options'
import { FACE_OPTIONS } from './face-options'
import { OAUTH_OPTION_DEFINITIONS } from './oauth-options'
import { AFFINITY_OPTIONS } from './affinity-options'
import { RESPONSES_OPTIONS } from './responses-options'
import { NOTIFY_OPTIONS } from './notify-options'
import { FALLBACK_OPTIONS } from './fallback-options'
import { MESSENGER_OPTIONS } from './messenger-options'
import { TASK_OPTIONS } from './task-options'
import { MIDJOURNEY_OPTIONS } from './midjourney-options'
import { VIDEO_OPTIONS } from './video-options'
import { TIER_OPTIONS } from './tier-options'
import { REALTIME_OPTIONS } from './realtime-options'

import type { OptionDefinition } from './option-definition'

/** Every runtime setting the back office may change, the areas' own (…-options.ts) spread in. */

const nonNegative = (value: unknown) => ((value as number) < 0 ? 'must not be negative' : undefined)
const positive = (value: unknown) => ((value as number) < 1 ? 'must be at least 1' : undefined)
/** A JSON object of model (or group) name → non-negative number. */
const priceTable = (value: unknown) => {
  for (const [name, n] of Object.entries(value as Record<string, unknown>)) {
    if (!name.trim()) return 'has an empty name'
    if (typeof n !== 'number' || !Number.isFinite(n) || n < 0) return `"${name}" must be a non-negative number`
  }
  return undefined
}
/** model → { "<size>" or "<size>/<quality>" → US$ per image } */
const imagePriceTable = (value: unknown) => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'must be an object of model → { size[/quality] → US$ per image }'
  for (const [model, sizes] of Object.entries(value as Record<string, unknown>)) {
    if (!model.trim()) return 'has an empty model name'
    if (typeof sizes !== 'object' || sizes === null || Array.isArray(sizes)) return `"${model}" must be an object of size[/quality] → US$ per image`
    const problem = priceTable(sizes)
    if (problem) return `"${model}" ${problem}`
  }
  return undefined
}
/** '' (use the browser's address) or an absolute http(s) URL without a trailing slash, query or credentials. */
const serverAddress = (value: unknown) => {
  const text = value as string
  if (text === '') return undefined
  const fail = 'must be an absolute http(s) URL without a trailing slash, like https://api.example.com (or empty)'
  if (!/^https?:\/\/[^\s/?#]+[^\s?#]*$/i.test(text) || text.endsWith('/')) return fail
  try {
    const url = new URL(text)
    if (url.username || url.password) return 'must not carry credentials'
  } catch {
    return fail
  }
  return undefined
}
const RATE_LIMIT_KEYS = ['token_rpm', 'token_tpm', 'token_concurrency', 'user_rpm', 'user_tpm', 'user_concurrency']
/** `{ "<group>": { "token_rpm": 60, … } }` with non-negative integers; unknown keys are refused. */
const groupRateLimits = (value: unknown) => {
  for (const [group, limits] of Object.entries(value as Record<string, unknown>)) {
    if (limits === null || typeof limits !== 'object' || Array.isArray(limits)) return `"${group}" must be an object`
    for (const [key, n] of Object.entries(limits)) {
      if (!RATE_LIMIT_KEYS.includes(key)) return `"${group}.${key}" is not one of ${RATE_LIMIT_KEYS.join(', ')}`
      if (!Number.isSafeInteger(n) || (n as number) < 0) return `"${group}.${key}" must be a non-negative integer`
    }
  }
  return undefined
}

export const OPTION_DEFINITIONS: Record<string, OptionDefinition> = {
  SystemName: { type: 'string', default: 'Tollgate', description: 'name shown in the UI and /api/status' },
  ...FACE_OPTIONS,
  ...TASK_OPTIONS,
  ...MIDJOURNEY_OPTIONS,
  ...VIDEO_OPTIONS,
  RegisterEnabled: { type: 'boolean', default: 'false', description: 'allow self-registration' },
  ServerAddress: { type: 'string', default: '', description: "the gateway's public address for clients (console, API base URL); '' = the browser's own address", check: serverAddress },
  DisplayInCurrencyEnabled: { type: 'boolean', default: 'true', description: 'the console shows amounts in US$ rather than quota units' },
  PublicPricingEnabled: { type: 'boolean', default: 'false', description: "logged-out visitors may read GET /api/pricing (the default group's prices)" },
  QuotaForNewUser: { type: 'integer', default: '0', description: 'quota a new user starts with', check: nonNegative },
  QuotaForInviter: { type: 'integer', default: '0', description: 'invitation quota credited to the inviter', check: nonNegative },
  QuotaForInvitee: { type: 'integer', default: '0', description: 'extra quota for a user who registers with an invite code', check: nonNegative },
  QuotaPerUnit: { type: 'number', default: '500000', description: 'quota units per US$1', check: positive },
  QuotaForInviterMaxInvitees: { type: 'integer', default: '100', description: 'invitees an inviter is rewarded for (QuotaForInviter); later invitees still register and get QuotaForInvitee (0 = no limit)', check: nonNegative },
  RegisterLimitPerHour: { type: 'integer', default: '10', description: 'sign-ups per client address (an IPv6 /64) per hour; more get 429 (0 = no limit)', check: nonNegative },
  LoginFailuresPerAccount: { type: 'integer', default: '5', description: 'failed logins to one account from one address before each next attempt waits (1 s, doubling)', check: positive },
  LoginFailuresPerAddress: { type: 'integer', default: '30', description: 'failed logins from one address (an IPv6 /64) to any accounts before each next attempt waits (1 s, doubling)', check: positive },
  LoginBackoffMaxSeconds: { type: 'integer', default: '900', description: 'the longest wait between failed logins', check: positive },
  LoginFailureWindowSeconds: { type: 'integer', default: '300', description: 'failed logins are forgotten this long after their wait ends without another attempt', check: positive },
  PasswordHashConcurrency: { type: 'integer', default: '0', description: 'password hashes and checks (argon2id) run at once; more wait in a queue (0 = one per CPU core)', check: nonNegative },
  PasswordHashQueue: { type: 'integer', default: '64', description: 'password hashes and checks that may wait for a turn; more get 503 with Retry-After', check: nonNegative },
  RelayMaxAttempts: { type: 'integer', default: '3', description: 'channels tried for one request before giving up', check: positive },
  RelayStreamIdleSeconds: { type: 'integer', default: '300', description: 'a stream whose upstream sends nothing for this long is ended with an error (a client that reads nothing this long is let go)', check: positive },
  RelayTimeoutSeconds: { type: 'integer', default: '300', description: 'time an upstream has to start answering (stream: first content)', check: positive },
  ChannelFailureThreshold: { type: 'integer', default: '3', description: 'consecutive failures that auto-disable an auto_ban channel', check: positive },
  ChannelProbeIntervalSeconds: { type: 'integer', default: '300', description: 'how often auto-disabled channels are re-tested', check: positive },
  ChannelPrivateNetworksAllowed: { type: 'boolean', default: 'true', description: 'channels (and the token endpoints their keys name) may point at private and loopback addresses (Ollama, vLLM on the LAN); turn off on shared instances. Link-local and cloud metadata addresses are always refused; PROVIDER_ENDPOINTS targets are the operator\'s and always allowed' },
  // Metering (src/metering/). Price tables override the shipped defaults model by model.
  ModelRatio: { type: 'json', default: '{}', description: 'model → input price ratio (1 = US$2 per 1M input tokens); overrides the shipped table', check: priceTable },
  CompletionRatio: { type: 'json', default: '{}', description: 'model → output price as a multiple of its input price', check: priceTable },
  CacheRatio: { type: 'json', default: '{}', description: 'model → cache-read price as a multiple of its input price', check: priceTable },
  CreateCacheRatio: { type: 'json', default: '{}', description: 'model → cache-write price as a multiple of its input price', check: priceTable },
  ModelPrice: { type: 'json', default: '{}', description: 'model → fixed US$ per call (wins over token prices)', check: priceTable },
  ...TIER_OPTIONS,
  ImagePrice: { type: 'json', default: '{}', description: 'model → { "1024x1024" or "1024x1024/hd" → US$ per image }; overrides the shipped table', check: imagePriceTable },
  GroupRatio: { type: 'json', default: '{"default":1}', description: 'group → price multiplier (missing group = 1)', check: priceTable },
  SelfUseModeEnabled: { type: 'boolean', default: 'false', description: 'serve models without a price for free instead of refusing them' },
  MaxChoicesPerRequest: { type: 'integer', default: '10', description: 'most outputs one request may ask for (chat n, completions n/best_of, Gemini candidateCount, images n); each is reserved at its full output allowance', check: positive },
  ServiceTierRatio: { type: 'json', default: '{}', description: 'OpenAI service_tier → price multiplier (e.g. {"priority": 2}); a tier not listed is refused unless standard (default, auto, flex)', check: priceTable },
  HostedToolPrice: { type: 'json', default: '{}', description: 'hosted tool billed per use by the vendor (web_search, file_search, code_interpreter, code_execution, image_generation, google_maps …) → US$ added to each request that offers it; a tool not listed is refused', check: priceTable },
  AnthropicBetaRatio: { type: 'json', default: '{}', description: 'anthropic-beta flag → price multiplier (e.g. {"context-1m-2025-08-07": 2}); flags that change the vendor\'s price (context-1m-…, fast-mode-…) are refused unless listed', check: priceTable },
  DefaultMaxOutputTokens: { type: 'integer', default: '4096', description: 'the output cap (and what is reserved) of a request that sets none, for a model ModelMaxOutputTokens and the shipped table do not name', check: positive },
  LogConsumeEnabled: { type: 'boolean', default: 'true', description: 'write a usage log row for every relay request' },
  LogRetentionDays: { type: 'integer', default: '0', description: 'delete usage logs older than this many days (0 = keep forever)', check: nonNegative },
  TokenRpmLimit: { type: 'integer', default: '0', description: 'requests per minute per API key (0 = no limit)', check: nonNegative },
  TokenTpmLimit: { type: 'integer', default: '0', description: 'tokens per minute per API key (0 = no limit)', check: nonNegative },
  TokenConcurrencyLimit: { type: 'integer', default: '0', description: 'requests in flight per API key (0 = no limit)', check: nonNegative },
  UserRpmLimit: { type: 'integer', default: '0', description: 'requests per minute per user (0 = no limit)', check: nonNegative },
  UserTpmLimit: { type: 'integer', default: '0', description: 'tokens per minute per user (0 = no limit)', check: nonNegative },
  UserConcurrencyLimit: { type: 'integer', default: '0', description: 'requests in flight per user (0 = no limit)', check: nonNegative },
  ...OUTPUT_OPTIONS,
  ...PAYMENT_OPTIONS,
  ...OAUTH_OPTION_DEFINITIONS,
  ...AFFINITY_OPTIONS,
  ...RESPONSES_OPTIONS,
  ...NOTIFY_OPTIONS,
  ...FALLBACK_OPTIONS,
  ...REALTIME_OPTIONS,
  GroupRateLimits: { type: 'json', default: '{}', description: `group → overrides of the limits above: { "vip": { "token_rpm": 600 } } (keys ${RATE_LIMIT_KEYS.join(', ')})`, check: groupRateLimits },
  ...MAIL_OPTIONS,
  ...MESSENGER_OPTIONS,
}
