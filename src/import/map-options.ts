import { FACE_OPTIONS } from '../options/face-options'
import { checkOption } from '../options/store'
import type { MapContext } from './map-common'
import type { SourceRow } from './read-source'
import { int, jsonObject, text } from './values'

export interface MappedOptions {
  /** Tollgate option key → value as the options table stores it */
  values: Map<string, string>
  /** new-api's AutomaticDisableChannelEnabled (its default: off) */
  autoDisableChannels: boolean
}

/** Settings that mean the same in both, under the same name. */
const SAME = ['SystemName', 'QuotaPerUnit', 'QuotaForNewUser', 'QuotaForInviter', 'QuotaForInvitee', 'ServerAddress', 'DisplayInCurrencyEnabled', 'LogConsumeEnabled', 'SelfUseModeEnabled'] as const
/**
 * The ways in and the mail (docs/accounts.md): SMTP, Turnstile, the sign-in providers, Telegram and WeChat, under
 * the same names in both. The secrets among them (`secret: true`) are sealed with the crypto secret on the way in.
 */
const ACCOUNTS = [
  'SMTPServer', 'SMTPPort', 'SMTPSSLEnabled', 'SMTPAccount', 'SMTPFrom', 'SMTPToken',
  'EmailVerificationEnabled', 'EmailDomainRestrictionEnabled', 'EmailDomainWhitelist', 'EmailAliasRestrictionEnabled',
  'TurnstileCheckEnabled', 'TurnstileSiteKey', 'TurnstileSecretKey',
  'GitHubOAuthEnabled', 'GitHubClientId', 'GitHubClientSecret',
  'discord.enabled', 'discord.client_id', 'discord.client_secret',
  'LinuxDOOAuthEnabled', 'LinuxDOClientId', 'LinuxDOClientSecret', 'LinuxDOMinimumTrustLevel',
  'oidc.enabled', 'oidc.client_id', 'oidc.client_secret', 'oidc.well_known', 'oidc.display_name',
  'passkey.enabled',
  'TelegramOAuthEnabled', 'TelegramBotName', 'TelegramBotToken',
  'WeChatAuthEnabled', 'WeChatServerAddress', 'WeChatServerToken', 'WeChatAccountQRCodeImageURL',
] as const
/** The public face (logo, home page, notice, about, legal texts): new-api's names, kept as written. */
const FACE = Object.keys(FACE_OPTIONS)
/** Price tables: model (or group) → number, the same ratios in both. */
const PRICE_TABLES = ['ModelRatio', 'CompletionRatio', 'CacheRatio', 'CreateCacheRatio', 'ModelPrice', 'GroupRatio', 'AudioRatio', 'AudioCompletionRatio'] as const
/** Read here and turned into other settings. */
const CONVERTED = new Set([
  'RegisterEnabled', 'PasswordRegisterEnabled', 'RetryTimes', 'AutomaticDisableChannelEnabled', 'ModelRequestRateLimitEnabled',
  'ModelRequestRateLimitCount', 'ModelRequestRateLimitSuccessCount', 'ModelRequestRateLimitDurationMinutes', 'ModelRequestRateLimitGroup',
])

const NOTES: Record<string, string> = {
  AutomaticEnableChannelEnabled: 'Tollgate always re-tests auto-disabled channels and re-enables those that answer (ChannelProbeIntervalSeconds)',
  ChannelDisableThreshold: "new-api's response-time limit for channel tests: Tollgate disables on consecutive failures (ChannelFailureThreshold) instead",
  PreConsumedQuota: 'Tollgate reserves the estimated cost of each request instead of a fixed amount',
  DataExportEnabled: 'Tollgate always keeps the hourly usage data',
}

/**
 * new-api / one-api options → Tollgate options. Only keys with a counterpart are written, each checked as
 * Tollgate checks an admin's edit; every other key is named in the report (its value never: secrets live there).
 */
export function mapOptions(ctx: MapContext, rows: SourceRow[]): MappedOptions {
  const { report } = ctx
  const source = new Map<string, string>()
  for (const row of rows) {
    report.read('options')
    source.set(text(row.key), text(row.value))
  }
  const values = new Map<string, string>()
  const put = (key: string, value: unknown, from: string): boolean => {
    try {
      // the same parsing and checks as PUT /api/option/
      values.set(key, checkOption(key, value).stored)
      return true
    } catch (error) {
      report.issue('options', from, `not a valid ${key} for Tollgate (${(error as Error).message}): Tollgate's value kept`)
      invalid.add(from)
      return false
    }
  }
  const used = new Set<string>()
  const invalid = new Set<string>()

  for (const key of [...SAME, ...FACE, ...ACCOUNTS]) {
    if (!source.has(key)) continue
    used.add(key)
    let value = source.get(key)!.trim()
    if (key === 'ServerAddress') value = value.replace(/\/+$/, '')
    put(key, value, key)
  }

  for (const key of PRICE_TABLES) {
    if (!source.has(key)) continue
    used.add(key)
    const table = jsonObject(source.get(key))
    if (!table) {
      report.issue('options', key, 'not a JSON object: not imported')
      continue
    }
    const clean: Record<string, number> = {}
    for (const [name, n] of Object.entries(table)) {
      const value = typeof n === 'number' ? n : Number(n)
      if (name.trim() && Number.isFinite(value) && value >= 0) clean[name] = value
      else report.issue('options', key, 'an entry that is not a non-negative number: dropped', undefined, name)
    }
    put(key, clean, key)
  }

  if (source.has('ModelTierPricing')) {
    used.add('ModelTierPricing')
    mapTierPricing(ctx, source.get('ModelTierPricing')!, put)
  }

  // registration: new-api needs both switches on (each defaults to on there; Tollgate's default is off)
  if (source.has('RegisterEnabled') || source.has('PasswordRegisterEnabled')) {
    const on = (k: string) => (source.get(k) ?? 'true').trim() === 'true'
    put('RegisterEnabled', on('RegisterEnabled') && on('PasswordRegisterEnabled'), 'RegisterEnabled')
  } else {
    report.issue('options', 'RegisterEnabled', "not set in the source (new-api's default: open registration): Tollgate's default kept, registration closed")
  }

  // new-api retries RetryTimes times after the first attempt
  if (source.has('RetryTimes')) put('RelayMaxAttempts', Math.max(0, int(source.get('RetryTimes'))) + 1, 'RetryTimes')
  else report.issue('options', 'RetryTimes', "not set in the source (new-api's default: 0 retries): Tollgate's default kept (RelayMaxAttempts 3)")

  const autoDisableChannels = (source.get('AutomaticDisableChannelEnabled') ?? 'false').trim() === 'true'
  if (!autoDisableChannels) {
    report.issue(
      'options',
      'AutomaticDisableChannelEnabled',
      'off in the source (new-api never disabled channels on errors): imported channels get auto_ban 0, so Tollgate does not either',
      undefined,
      'false',
    )
  }

  mapRateLimits(ctx, source, put)

  for (const key of source.keys()) {
    if (invalid.has(key)) report.skipped('options', 'invalid value')
    else if (used.has(key) || CONVERTED.has(key)) report.imported('options')
    else {
      report.skipped('options', 'no counterpart')
      report.issue('options', key, NOTES[key] ?? 'no counterpart in Tollgate: not imported')
    }
  }
  return { values, autoDisableChannels }
}

/**
 * new-api's per-user request limit: at most Count requests (SuccessCount successful ones) per DurationMinutes,
 * per group overrides as `{group: [count, successCount]}`. Tollgate limits requests per minute per user with a
 * token bucket: Count per N minutes becomes ceil(Count / N) per minute (the same average, a smaller burst).
 */
function mapRateLimits(ctx: MapContext, source: Map<string, string>, put: (key: string, value: unknown, from: string) => boolean): void {
  if ((source.get('ModelRequestRateLimitEnabled') ?? 'false').trim() !== 'true') return
  const minutes = Math.max(1, int(source.get('ModelRequestRateLimitDurationMinutes'), 1))
  const perMinute = (n: number) => Math.ceil(n / minutes)
  const count = int(source.get('ModelRequestRateLimitCount'))
  if (count > 0) {
    if (put('UserRpmLimit', perMinute(count), 'ModelRequestRateLimitCount') && minutes > 1) {
      ctx.report.issue('options', 'ModelRequestRateLimitCount', `${count} requests per ${minutes} minutes became UserRpmLimit ${perMinute(count)} (per minute)`)
    }
  }
  if (int(source.get('ModelRequestRateLimitSuccessCount')) > 0) {
    ctx.report.issue('options', 'ModelRequestRateLimitSuccessCount', 'a limit on successful requests only: no counterpart (Tollgate counts every request)')
  }
  const groups = jsonObject(source.get('ModelRequestRateLimitGroup'))
  if (!groups) return
  const limits: Record<string, { user_rpm: number }> = {}
  for (const [group, pair] of Object.entries(groups)) {
    const total = Array.isArray(pair) ? int(pair[0]) : 0
    if (total > 0) limits[group] = { user_rpm: perMinute(total) }
    if (Array.isArray(pair) && int(pair[1]) > 0) {
      ctx.report.issue('options', 'ModelRequestRateLimitGroup', 'a per-group limit on successful requests: no counterpart', undefined, group)
    }
  }
  if (Object.keys(limits).length) put('GroupRateLimits', limits, 'ModelRequestRateLimitGroup')
}

/**
 * new-api's `ModelTierPricing` (prices by prompt length), the same shape in both. Each model is checked on its own
 * as PUT /api/option/ checks the whole: a bad model is dropped and named, the rest are kept.
 */
function mapTierPricing(ctx: MapContext, raw: string, put: (key: string, value: unknown, from: string) => boolean): void {
  const table = jsonObject(raw)
  if (!table) {
    ctx.report.issue('options', 'ModelTierPricing', 'not a JSON object: not imported')
    return
  }
  const clean: Record<string, unknown> = {}
  for (const [model, config] of Object.entries(table)) {
    try {
      checkOption('ModelTierPricing', { [model]: config })
      clean[model] = config
    } catch (error) {
      ctx.report.issue('options', 'ModelTierPricing', `a model's tiers Tollgate refuses (${(error as Error).message}): dropped`, undefined, model)
    }
  }
  put('ModelTierPricing', clean, 'ModelTierPricing')
}
