// The console's view of the API: the server's own response types, imported as types only (nothing of the
// server is bundled into the browser).
import type { UserView } from '../../modules/users/view'
import type { ChannelView } from '../../modules/channels/view'
import type { TokenView } from '../../modules/tokens/schemas'
import type { logView } from '../../modules/logs/view'
import type { redemptionView } from '../../modules/redemptions/view'
import type { OrderView } from '../../modules/payments/view'

export type User = UserView
export type Channel = ChannelView
export type Token = typeof TokenView.static
export type LogRow = ReturnType<typeof logView>
export type Redemption = ReturnType<typeof redemptionView>
export type TopUpOrder = OrderView

/** `GET /api/data/channel_stats`: one channel's traffic in the window (latencies of its successful requests). */
export interface ChannelStat {
  channel_id: number
  name: string
  requests: number
  errors: number
  error_rate: number
  p50_ms: number
  p95_ms: number
}

/** `GET /api/status` */
export interface Status {
  version: string
  system_name: string
  setup: boolean
  register_enabled: boolean
  github_oauth?: boolean
  discord_oauth?: boolean
  linuxdo_oauth?: boolean
  oidc_enabled?: boolean
  oidc_display_name?: string
  /** Telegram's login widget: on, the bot it signs for, its script (where PROVIDER_ENDPOINTS sends it) */
  telegram_oauth?: boolean
  telegram_bot_name?: string
  telegram_widget_url?: string
  /** WeChat through new-api's WeChat server: on, and the official account's QR code image */
  wechat_login?: boolean
  wechat_qrcode?: string
  /** mail can be sent: the profile offers changing the e-mail */
  email_change?: boolean
  /** root's custom sign-in providers that are on (bound as `custom:<id>`, signed in through /oauth/<slug>) */
  custom_oauth_providers?: { id: number; name: string; slug: string; icon: string; client_id: string }[]
  quota_per_unit: number
  start_time: number
  server_address?: string
  display_in_currency?: boolean
  public_pricing_enabled?: boolean
  email_verification?: boolean
  turnstile_check?: boolean
  turnstile_site_key?: string
  turnstile_script_url?: string
  /** `passkey.enabled`: the login page offers the passkey button */
  passkey_login?: boolean
  /** SMTP and ServerAddress are set: the login page offers "forgot password" */
  password_reset?: boolean
  /** the public face: '' = the built-in mark; the footer is Markdown (new-api's name) */
  logo?: string
  footer_html?: string
  user_agreement_enabled?: boolean
  privacy_policy_enabled?: boolean
}

export const Role = { user: 1, admin: 10, root: 100 } as const

import type { planView, subscriptionView } from '../../subscriptions/plans'
/** A subscription plan (new-api's fields) and a plan a user holds, as the server shows them. */
export type Plan = ReturnType<typeof planView>
export type HeldPlan = ReturnType<typeof subscriptionView>
