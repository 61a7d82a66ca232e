import type { ErrorFacts } from '../api/client'
import type { Locale, MessageKey, Params } from '../i18n/catalog'
import { isFactorCode } from './factor-errors'
import { notifyErrorKey } from './notify-errors'
import { mailErrorKey } from './mail-errors'
import { accountErrorKey } from './account-errors'
import { PAYMENT_CODES, paymentErrorKey } from './payment-errors'
import { planErrorKey } from './plan-errors'
import { codexErrorKey } from './codex-errors'

type Translate = (key: MessageKey, params?: Params) => string

/**
 * Codes the console words itself, whatever the reader's language: the server's message for them is English and
 * says nothing more. `upstream_*` also come from channel tests and model lists (src/relay/routing/upstream-failure.ts).
 */
const SPECIFIC: Record<string, MessageKey> = {
  login_rate_limited: 'common.error.loginRateLimited',
  signup_rate_limited: 'common.error.signupRateLimited',
  busy: 'common.error.busy',
  username_confusable: 'common.error.usernameConfusable',
  login_failed: 'errors.loginFailed',
  user_disabled: 'errors.userDisabled',
  setup_code_required: 'auth.setup.codeMissing',
  setup_code_wrong: 'auth.setup.codeWrong',
  storage_unavailable: 'errors.storageUnavailable',
  internal_error: 'errors.internal',
  payload_too_large: 'errors.payloadTooLarge',
  invalid_json: 'errors.invalidJson',
  no_model_list: 'errors.noModelList',
  upstream_unreachable: 'errors.upstreamUnreachable',
  upstream_timeout: 'errors.upstreamTimeout',
  upstream_refused_address: 'errors.upstreamRefusedAddress',
  upstream_auth: 'errors.upstreamAuth',
  upstream_not_found: 'errors.upstreamNotFound',
  upstream_rate_limited: 'errors.upstreamRateLimited',
  upstream_status: 'errors.upstreamStatus',
  upstream_bad_answer: 'errors.upstreamBadAnswer',
  upstream_error: 'errors.upstreamStatus',
  not_testable: 'errors.notTestable',
  invalid_override: 'errors.invalidOverride',
  balance_unsupported: 'channels.balance.unsupported',
  balance_failed: 'channels.balance.failed',
  // "Upstream models": apply
  nothing_to_apply: 'upstream.error.nothingToApply',
  not_pending: 'upstream.error.notPending',
  // the relay's refusals, as the playground meets them
  model_price_error: 'errors.modelUnpriced',
  model_not_found: 'errors.modelNotFound',
  upstream_unavailable: 'errors.upstreamUnavailable',
  insufficient_quota: 'errors.insufficientQuota',
}

/** Generic codes: in English the server's own message says more (which field, which limit); other languages get these. */
const GENERIC: Record<string, MessageKey> = {
  invalid_request: 'errors.invalidRequest',
  unauthorized: 'errors.unauthorized',
  forbidden: 'errors.forbidden',
  not_found: 'errors.notFound',
  conflict: 'errors.conflict',
  rate_limited: 'errors.rateLimited',
}

/** Every code the console has words for (the zh-CN test renders each). */
export const WORDED_CODES: readonly string[] = [...Object.keys(SPECIFIC), ...Object.keys(GENERIC), ...PAYMENT_CODES]

/** "4 min" or "30 s". */
function waitText(seconds: number, t: Translate): string {
  return seconds < 60 ? t('common.wait.seconds', { count: Math.ceil(seconds) }) : t('common.wait.minutes', { count: Math.ceil(seconds / 60) })
}

/** By status when the code is unknown: never the server's English outside English. */
function byStatus(status: number): MessageKey {
  if (status === 401) return 'errors.unauthorized'
  if (status === 403) return 'errors.forbidden'
  if (status === 404) return 'errors.notFound'
  if (status === 409) return 'errors.conflict'
  if (status === 429) return 'errors.rateLimited'
  if (status >= 500) return 'errors.internal'
  return 'errors.invalidRequest'
}

/**
 * The reader's words for a refusal: the catalog's for a known code (with its facts: wait, field, host, request);
 * in English the server's message for the generic ones; elsewhere a catalog string by code or status.
 */
export function errorWords(status: number, message: string, facts: ErrorFacts, locale: Locale, t: Translate): string {
  const params: Params = {
    wait: waitText(facts.retry_after ?? 1, t),
    field: facts.param ?? '',
    host: facts.host || hostOf(facts.url) || '—',
    status: facts.status ?? status,
    request: facts.url ? `${facts.method ?? ''} ${facts.url}`.trim() : '—',
  }
  const specific = facts.code ? SPECIFIC[facts.code] : undefined
  if (specific) return t(specific, params)
  // the second factors' and the mail's own codes, worded in their catalogs
  if (facts.code && isFactorCode(facts.code)) return t(`twofa.error.${facts.code}`)
  if (facts.code === 'mail_send_failed') return t('mail.error.sendFailed', { reason: message.replace(/^the mail could not be sent: /, '') })
  const mailKey = mailErrorKey(facts.code) ?? accountErrorKey(facts.code) ?? paymentErrorKey(facts.code) ?? planErrorKey(facts.code) ?? notifyErrorKey(facts.code) ?? codexErrorKey(facts.code)
  if (mailKey) return t(mailKey, params)
  if (locale === 'en' && message) return message
  const generic = (facts.code && GENERIC[facts.code]) || byStatus(status)
  const text = t(generic, params)
  return facts.param && generic === 'errors.invalidRequest' ? t('errors.invalidField', params) : text
}

function hostOf(url: string | undefined): string {
  if (!url) return ''
  try {
    return new URL(url).host
  } catch {
    return ''
  }
}
