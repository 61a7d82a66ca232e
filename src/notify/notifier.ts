import type { Coordination } from '../coord'
import { createSecretBox } from '../crypto/secret-box'
import type { Repos } from '../db/repos'
import type { NotifySettingsRow } from '../db/repos/notify-settings'
import { Role } from '../db/repos/user-roles'
import { type Mailer, mailNotConfigured } from '../mail/mailer'
import { GatewayError } from '../errors'
import type { OptionStore } from '../options/store'
import type { Outbound } from '../outbound/fetch'
import { type NotifyEvent, notifyMail, webhookPayload } from './messages'
import { deliverWebhook } from './webhook'

export interface NotifierPieces {
  repos: Pick<Repos, 'notifySettings' | 'users'>
  /** read at each send (a test swaps the app's mailer) */
  mailer: () => Pick<Mailer, 'configured' | 'send'>
  /** the outbound guard for webhooks (WebhookPrivateNetworksAllowed) */
  outbound: Outbound
  coord: Pick<Coordination, 'windowHit'>
  options: Pick<OptionStore, 'get'>
  cryptoSecret: string
  /** a notification dropped or not delivered (never thrown: the request path does not wait for it) */
  warn: (message: string) => void
  retryDelaysMs?: number[]
}

/** One person a notification goes to, and how. */
export interface Recipient {
  userId: number
  email: string
  settings?: NotifySettingsRow
}

/** Events waiting to be sent; more are dropped (and logged): a storm of events must not hold memory. */
const MAX_QUEUED = 1000
const WORKERS = 2
/** The same event seen twice within this (two nodes, two concurrent settlements) is one event. */
const EVENT_WINDOW_SECONDS = 60
const HOUR = 3600
/** Channel events go to at most this many root accounts. */
const MAX_ROOTS = 20
const THRESHOLD_CACHE_MS = 60_000
const MAX_CACHED_THRESHOLDS = 10_000

/** The charge took the balance from at or above the threshold to below it. */
const crossed = (threshold: number, charged: number, quotaAfter: number): boolean => threshold > 0 && quotaAfter < threshold && quotaAfter + charged >= threshold

/**
 * Notifications (docs/notifications.md): an event is queued by the code that saw it, without waiting; a worker
 * takes it once across nodes (a coord window on the event), then sends it to each recipient as their settings say
 * (e-mail, or a signed webhook), at most NotifyLimitPerHour of a kind to one recipient per hour.
 */
export function createNotifier(pieces: NotifierPieces) {
  const box = createSecretBox(pieces.cryptoSecret)
  const queue: (() => Promise<void>)[] = []
  let running = 0
  const idleWaiters: (() => void)[] = []
  const thresholds = new Map<number, { value: number; at: number }>()

  const enqueue = (what: string, task: () => Promise<void>): void => {
    if (queue.length >= MAX_QUEUED) return pieces.warn(`notification dropped (queue full): ${what}`)
    queue.push(task)
    pump()
  }
  const pump = (): void => {
    while (running < WORKERS && queue.length > 0) {
      const task = queue.shift()!
      running++
      void task()
        .catch((error: unknown) => pieces.warn(`notification failed: ${(error as Error).message}`))
        .finally(() => {
          running--
          pump()
          if (running === 0 && queue.length === 0) idleWaiters.splice(0).forEach((resolve) => resolve())
        })
    }
  }

  /** Taken once across nodes: false when another node (or an earlier call) has this event already. */
  const firstSighting = async (key: string): Promise<boolean> => (await pieces.coord.windowHit([`notify:event:${key}`], 1, EVENT_WINDOW_SECONDS)).ok

  const withinLimit = async (event: NotifyEvent, userId: number): Promise<boolean> => {
    const limit = Math.max(1, pieces.options.get<number>('NotifyLimitPerHour'))
    return (await pieces.coord.windowHit([`notify:limit:${event.kind}:u:${userId}`], limit, HOUR)).ok
  }

  /** Send to one recipient, as their settings say; throws why it was not sent. */
  const sendTo = async (recipient: Recipient, event: NotifyEvent, retryDelaysMs = pieces.retryDelaysMs): Promise<void> => {
    const system = pieces.options.get<string>('SystemName')
    const money = { inCurrency: pieces.options.get<boolean>('DisplayInCurrencyEnabled') === true, quotaPerUnit: Number(pieces.options.get<number>('QuotaPerUnit')) }
    const settings = recipient.settings
    if (settings?.notifyType === 'webhook') {
      if (!settings.webhookUrl) throw new Error('no webhook URL set')
      const secret = settings.webhookSecret ? await box.decrypt(settings.webhookSecret) : ''
      await deliverWebhook({ fetch: pieces.outbound.fetch, retryDelaysMs }, settings.webhookUrl, secret, webhookPayload(event, system, Math.floor(Date.now() / 1000), money))
      return
    }
    const to = settings?.notificationEmail || recipient.email
    if (!to) throw new GatewayError(400, 'notify_no_address', 'no e-mail address to send to: set notification_email or the account\'s e-mail', undefined, undefined, { code: 'notify_no_address' })
    const mailer = pieces.mailer()
    if (!mailer.configured()) throw mailNotConfigured()
    await mailer.send(notifyMail(to, event, system, money))
  }

  const deliver = async (recipients: Recipient[], event: NotifyEvent): Promise<void> => {
    for (const recipient of recipients) {
      if (!(await withinLimit(event, recipient.userId))) {
        pieces.warn(`notification ${event.kind} to user ${recipient.userId} dropped: NotifyLimitPerHour reached`)
        continue
      }
      await sendTo(recipient, event).catch((error: unknown) => pieces.warn(`notification ${event.kind} to user ${recipient.userId} not sent: ${(error as Error).message}`))
    }
  }

  const roots = (): Promise<Recipient[]> => pieces.repos.notifySettings.recipientsAtRole(Role.root, MAX_ROOTS)

  const cachedThreshold = (userId: number): number | undefined => {
    const cached = thresholds.get(userId)
    return cached && Date.now() - cached.at < THRESHOLD_CACHE_MS ? cached.value : undefined
  }
  const thresholdOf = async (userId: number): Promise<number> => {
    const cached = cachedThreshold(userId)
    if (cached !== undefined) return cached
    const own = (await pieces.repos.notifySettings.get(userId))?.quotaWarningThreshold ?? 0
    const value = own > 0 ? own : pieces.options.get<number>('QuotaRemindThreshold')
    if (thresholds.size >= MAX_CACHED_THRESHOLDS) thresholds.clear()
    thresholds.set(userId, { value, at: Date.now() })
    return value
  }

  return {
    /**
     * A settlement charged `charged` and left the user `quotaAfter`: when that charge took the balance below the
     * user's threshold, they hear of it (once, whatever the nodes).
     */
    quotaCharged(userId: number, charged: number, quotaAfter: number): void {
      if (charged <= 0) return
      // most settlements cross nothing: with the threshold known, they queue nothing (a busy node's queue holds only events)
      const known = cachedThreshold(userId)
      if (known !== undefined && !crossed(known, charged, quotaAfter)) return
      enqueue(`quota of user ${userId}`, async () => {
        const threshold = await thresholdOf(userId)
        if (!crossed(threshold, charged, quotaAfter)) return
        if (!(await firstSighting(`quota_low:u:${userId}`))) return
        const user = await pieces.repos.users.findById(userId)
        if (!user) return
        const settings = await pieces.repos.notifySettings.get(userId)
        await deliver([{ userId, email: user.email, settings }], { kind: 'quota_low', quota: quotaAfter, threshold })
      })
    },

    /** This node auto-disabled the channel: root hears of it once. */
    channelDisabled(channelId: number, name: string, reason: string): void {
      enqueue(`channel ${channelId} disabled`, async () => {
        if (!(await firstSighting(`channel_disabled:${channelId}`))) return
        await deliver(await roots(), { kind: 'channel_disabled', channelId, name, reason: reason.slice(0, 500) })
      })
    },

    /** A balance was fetched: below ChannelBalanceWarningThreshold, when the one before was not (or none was), root hears of it. */
    channelBalance(channelId: number, name: string, balance: number, previous: number | undefined): void {
      const threshold = pieces.options.get<number>('ChannelBalanceWarningThreshold')
      if (threshold <= 0 || balance >= threshold || (previous !== undefined && previous < threshold)) return
      enqueue(`channel ${channelId} balance`, async () => {
        if (!(await firstSighting(`channel_balance_low:${channelId}`))) return
        await deliver(await roots(), { kind: 'channel_balance_low', channelId, name, balance, threshold })
      })
    },

    /** The settings as saved changed: the next quota check reads them. */
    forgetThreshold(userId: number): void {
      thresholds.delete(userId)
    },

    /** The guard webhooks are sent through, for a URL being saved. */
    webhookOutbound: pieces.outbound,

    /** The Test button: one notification now, no retries; throws why it was not sent. */
    sendTest: (recipient: Recipient): Promise<void> => sendTo(recipient, { kind: 'test' }, []),

    /** Resolves once nothing is queued or being sent (tests; a stop). */
    idle: (): Promise<void> => (running === 0 && queue.length === 0 ? Promise.resolve() : new Promise<void>((resolve) => idleWaiters.push(resolve))),
  }
}

export type Notifier = ReturnType<typeof createNotifier>
