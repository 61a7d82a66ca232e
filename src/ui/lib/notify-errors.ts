import type { MessageKey } from '../i18n'

/** The notification settings' stable codes (src/notify) → the catalog's words. */
const KEYS: Record<string, MessageKey> = {
  notify_type_unsupported: 'notify.error.typeUnsupported',
  notify_threshold_invalid: 'notify.error.thresholdInvalid',
  webhook_url_required: 'notify.error.urlRequired',
  webhook_url_invalid: 'notify.error.urlInvalid',
  webhook_url_refused: 'notify.error.urlRefused',
  webhook_secret_invalid: 'notify.error.secretInvalid',
  notify_no_address: 'notify.error.noAddress',
  notify_failed: 'notify.error.failed',
  notify_rate_limited: 'notify.error.rateLimited',
}

export function notifyErrorKey(code: string | undefined): MessageKey | undefined {
  return code ? KEYS[code] : undefined
}
