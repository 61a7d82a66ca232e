import type { OptionDefinition } from './option-definition'

const nonNegative = (value: unknown) => ((value as number) < 0 ? 'must not be negative' : undefined)
const between = (low: number, high: number) => (value: unknown) => ((value as number) < low || (value as number) > high ? `must be between ${low} and ${high}` : undefined)

/** Notifications (src/notify, docs/notifications.md): new-api's QuotaRemindThreshold, the rest Tollgate's. */
export const NOTIFY_OPTIONS: Record<string, OptionDefinition> = {
  QuotaRemindThreshold: { type: 'integer', default: '1000', description: 'a user whose balance falls below this (quota units) is notified, unless their own quota_warning_threshold says otherwise', check: nonNegative },
  NotifyLimitPerHour: { type: 'integer', default: '2', description: 'notifications of one kind one user receives per hour, at most (more are dropped and logged)', check: between(1, 60) },
  ChannelBalanceWarningThreshold: { type: 'number', default: '0', description: "root is notified when a channel's balance (US$, as fetched) falls below this (0 = never)", check: nonNegative },
  WebhookPrivateNetworksAllowed: { type: 'boolean', default: 'false', description: 'notification webhooks may target private and loopback addresses (PROVIDER_ENDPOINTS targets always may)' },
}
