import type { SecretBox } from '../crypto/secret-box'
import type { ImportRepo } from '../db/repos'
import type { NotifySettingsFields } from '../db/repos/notify-settings'
import type { MapContext } from './map-common'
import { text } from './values'

/** The notify settings of new-api's user `setting` JSON, the webhook secret still plain (the writer seals it). */
export type MappedNotify = NotifySettingsFields

/** new-api's user setting fields Tollgate has nothing for: named in the report (values left out: tokens live there). */
const UNMAPPED = new Set(['upstream_model_update_notify_enabled', 'accept_unset_model_ratio_model', 'record_ip_log', 'sidebar_modules', 'billing_preference', 'language', 'disable_topup', 'gotify_priority'])

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/**
 * A new-api user's `setting` (dto.UserSetting) → Tollgate's notification settings, as PUT /api/user/setting takes them:
 * e-mail or a webhook (its URL and secret), the quota threshold, the e-mail address. Bark and Gotify have no counterpart:
 * such a user is notified by e-mail, reported. Undefined: nothing to carry (no setting, or only defaults).
 */
export function mapNotifySetting(ctx: MapContext, sourceId: number, raw: unknown): MappedNotify | undefined {
  const source = text(raw).trim()
  if (!source) return undefined
  let setting: unknown
  try {
    setting = JSON.parse(source)
  } catch {
    ctx.report.issue('users', 'setting', 'not JSON: notification settings not imported', sourceId)
    return undefined
  }
  if (!isObject(setting)) return undefined
  const unmapped = Object.keys(setting).filter((key) => UNMAPPED.has(key) && setting[key] !== undefined && setting[key] !== '' && setting[key] !== false && setting[key] !== 0)
  if (unmapped.length > 0) ctx.report.issue('users', 'setting', `no counterpart in Tollgate, not imported: ${unmapped.join(', ')}`, sourceId)

  const webhookUrl = bounded(setting.webhook_url, 2048)
  let notifyType = text(setting.notify_type) || 'email'
  if (notifyType === 'bark' || notifyType === 'gotify') {
    ctx.report.issue('users', 'setting.notify_type', `${notifyType} notifications have no counterpart: notified by e-mail instead`, sourceId, notifyType)
    notifyType = 'email'
  } else if (notifyType === 'webhook' && !/^https?:\/\/[^\s/]+/i.test(webhookUrl)) {
    ctx.report.issue('users', 'setting.webhook_url', 'a webhook without an http(s) URL: notified by e-mail instead', sourceId)
    notifyType = 'email'
  } else if (notifyType !== 'email' && notifyType !== 'webhook') {
    ctx.report.issue('users', 'setting.notify_type', 'unknown notification type: notified by e-mail instead', sourceId, notifyType.slice(0, 32))
    notifyType = 'email'
  }
  const threshold = typeof setting.quota_warning_threshold === 'number' && Number.isFinite(setting.quota_warning_threshold) ? Math.max(0, Math.round(setting.quota_warning_threshold)) : 0
  const email = bounded(setting.notification_email, 254)
  const fields: MappedNotify = {
    notifyType,
    quotaWarningThreshold: Math.min(threshold, Number.MAX_SAFE_INTEGER),
    webhookUrl: /^https?:\/\//i.test(webhookUrl) ? webhookUrl : '',
    webhookSecret: bounded(setting.webhook_secret, 512),
    notificationEmail: email.includes('@') ? email.toLowerCase() : '',
  }
  const defaults = fields.notifyType === 'email' && !fields.quotaWarningThreshold && !fields.webhookUrl && !fields.webhookSecret && !fields.notificationEmail
  return defaults ? undefined : fields
}

const bounded = (value: unknown, max: number): string => {
  const s = text(value).trim()
  return s.length <= max ? s : ''
}

/** Each imported user's settings written, the webhook secret sealed as PUT /api/user/setting seals it. */
export async function importNotifySettings(repo: ImportRepo, box: SecretBox, users: { sourceId: number; notify?: MappedNotify }[], imported: (sourceId: number) => number): Promise<void> {
  for (const user of users) {
    const id = imported(user.sourceId)
    if (!user.notify || id === 0) continue
    const secret = user.notify.webhookSecret ? await box.encrypt(user.notify.webhookSecret) : ''
    await repo.insertNotifySettings(id, { ...user.notify, webhookSecret: secret })
  }
}
