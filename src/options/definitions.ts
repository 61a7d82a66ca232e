/** Every runtime setting the back office may change: its type, default and a check of new values. */
export type OptionType = 'boolean' | 'integer' | 'number' | 'string' | 'json'

export interface OptionDefinition {
  type: OptionType
  default: string
  description: string
  /** Extra check beyond the type; return an error message or undefined. */
  check?: (value: unknown) => string | undefined
}

const nonNegative = (value: unknown) => ((value as number) < 0 ? 'must not be negative' : undefined)
const positive = (value: unknown) => ((value as number) < 1 ? 'must be at least 1' : undefined)

export const OPTION_DEFINITIONS: Record<string, OptionDefinition> = {
  SystemName: { type: 'string', default: 'Tollgate', description: 'name shown in the UI and /api/status' },
  RegisterEnabled: { type: 'boolean', default: 'false', description: 'allow self-registration' },
  QuotaForNewUser: { type: 'integer', default: '0', description: 'quota a new user starts with', check: nonNegative },
  QuotaForInviter: { type: 'integer', default: '0', description: 'invitation quota credited to the inviter', check: nonNegative },
  QuotaForInvitee: { type: 'integer', default: '0', description: 'extra quota for a user who registers with an invite code', check: nonNegative },
  QuotaPerUnit: { type: 'number', default: '500000', description: 'quota units per US$1', check: positive },
  LoginFailuresPerWindow: { type: 'integer', default: '10', description: 'failed logins per IP or username before 429', check: positive },
  LoginFailureWindowSeconds: { type: 'integer', default: '300', description: 'window of the failed-login limit', check: positive },
  RelayMaxAttempts: { type: 'integer', default: '3', description: 'channels tried for one request before giving up', check: positive },
  RelayTimeoutSeconds: { type: 'integer', default: '300', description: 'time an upstream has to start answering (stream: first content)', check: positive },
  ChannelFailureThreshold: { type: 'integer', default: '3', description: 'consecutive failures that auto-disable an auto_ban channel', check: positive },
  ChannelProbeIntervalSeconds: { type: 'integer', default: '300', description: 'how often auto-disabled channels are re-tested', check: positive },
}
