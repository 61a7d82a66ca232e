import { createSecretBox } from '../crypto/secret-box'
import type { NotifySettingsFields, NotifySettingsRepo, NotifySettingsRow } from '../db/repos/notify-settings'
import { GatewayError } from '../errors'
import { normalizeEmail } from '../mail/addresses'
import type { Outbound } from '../outbound/fetch'

/** new-api's user setting fields, as PUT /api/user/setting takes them (Bark and Gotify are not sent: 400). */
export interface SettingsInput {
  notify_type: string
  quota_warning_threshold?: number
  webhook_url?: string
  /** undefined: keep the one saved; '': none (unsigned); else the new secret */
  webhook_secret?: string
  notification_email?: string
}

/** What the console reads back: the secret never, only whether one is set. */
export interface SettingsView {
  notify_type: string
  quota_warning_threshold: number
  webhook_url: string
  webhook_secret: string
  webhook_secret_set: boolean
  notification_email: string
}

const SECRET_MASK = '********'

const refused = (code: string, message: string, param: string) => new GatewayError(400, code, message, param, undefined, { code })

export function settingsView(row: NotifySettingsRow | undefined): SettingsView {
  return {
    notify_type: row?.notifyType ?? 'email',
    quota_warning_threshold: row?.quotaWarningThreshold ?? 0,
    webhook_url: row?.webhookUrl ?? '',
    webhook_secret: row?.webhookSecret ? SECRET_MASK : '',
    webhook_secret_set: !!row?.webhookSecret,
    notification_email: row?.notificationEmail ?? '',
  }
}

interface SaveDeps {
  repo: NotifySettingsRepo
  outbound: Pick<Outbound, 'refusalFor'>
  cryptoSecret: string
}

/** Check and save a user's settings (the secret sealed); 400 with a stable code for what is wrong. */
export async function saveSettings(deps: SaveDeps, userId: number, input: SettingsInput): Promise<NotifySettingsRow> {
  if (input.notify_type !== 'email' && input.notify_type !== 'webhook') throw refused('notify_type_unsupported', 'field "notify_type": email or webhook', 'notify_type')
  const threshold = input.quota_warning_threshold ?? 0
  if (!Number.isSafeInteger(threshold) || threshold < 0) throw refused('notify_threshold_invalid', 'field "quota_warning_threshold": a whole number of quota units, 0 or more', 'quota_warning_threshold')
  const email = input.notification_email?.trim() ? normalizeEmail(input.notification_email) : ''
  const url = (input.webhook_url ?? '').trim()
  if (input.notify_type === 'webhook' && !url) throw refused('webhook_url_required', 'field "webhook_url": required for webhook notifications', 'webhook_url')
  if (url) await checkWebhookUrl(deps.outbound, url)
  const saved = await deps.repo.get(userId)
  const fields: NotifySettingsFields = {
    notifyType: input.notify_type,
    quotaWarningThreshold: threshold,
    webhookUrl: url,
    webhookSecret: await sealedSecret(deps.cryptoSecret, input.webhook_secret, saved?.webhookSecret ?? ''),
    notificationEmail: email,
  }
  return deps.repo.put(userId, fields)
}

async function sealedSecret(cryptoSecret: string, given: string | undefined, saved: string): Promise<string> {
  if (given === undefined || given === SECRET_MASK) return saved
  if (given === '') return ''
  if (given.length < 8 || given.length > 256) throw refused('webhook_secret_invalid', 'field "webhook_secret": 8 to 256 characters', 'webhook_secret')
  return createSecretBox(cryptoSecret).encrypt(given)
}

async function checkWebhookUrl(outbound: Pick<Outbound, 'refusalFor'>, url: string): Promise<void> {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    throw refused('webhook_url_invalid', 'field "webhook_url": not a URL', 'webhook_url')
  }
  if ((parsed.protocol !== 'https:' && parsed.protocol !== 'http:') || parsed.username || parsed.password) {
    throw refused('webhook_url_invalid', 'field "webhook_url": an http(s) URL without credentials', 'webhook_url')
  }
  const refusal = await outbound.refusalFor(url)
  if (refusal) throw refused('webhook_url_refused', `field "webhook_url": ${refusal}`, 'webhook_url')
}
