import type { messenger as en } from '../en/messenger'

/** 登录页和个人资料上的 Telegram 小组件与微信验证码，以及它们的拒绝原因。 */
export const messenger: Record<keyof typeof en, string> = {
  'messenger.telegram.widget': '使用 Telegram 登录',
  'accounts.error.telegram_auth_invalid': '这次登录没有 Telegram 的有效签名。请从 Telegram 按钮重新开始。',
  'accounts.error.telegram_auth_expired': '这次 Telegram 登录已过期。请从 Telegram 按钮重新开始。',
  'accounts.error.telegram_auth_used': '这次 Telegram 登录已被使用过。请从 Telegram 按钮重新开始。',
}
