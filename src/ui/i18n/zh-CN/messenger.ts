import type { messenger as en } from '../en/messenger'

/** 登录页和个人资料上的 Telegram 小组件与微信验证码，以及它们的拒绝原因。 */
export const messenger: Record<keyof typeof en, string> = {
  'messenger.telegram.widget': '使用 Telegram 登录',
  'messenger.wechat.button': '使用微信继续',
  'messenger.wechat.form': '微信验证码',
  'messenger.wechat.qrAlt': '微信公众号二维码',
  'messenger.wechat.lead': '用微信扫描二维码，关注公众号并发送“验证码”，再填入公众号回复的验证码。',
  'messenger.wechat.code': '微信验证码',
  'messenger.wechat.signIn': '使用微信登录',
  'messenger.wechat.bind': '绑定微信',
  'messenger.wechat.bound': '已绑定 {name}',
  'messenger.email.title': '邮箱',
  'messenger.email.current': '当前邮箱：{email}',
  'messenger.email.none': '还没有邮箱地址。',
  'messenger.email.new': '新邮箱地址',
  'messenger.email.send': '发送验证码',
  'messenger.email.sent': '如果该地址未被占用，验证码已发往 {email}。',
  'messenger.email.code': '邮件中的验证码',
  'messenger.email.change': '更换邮箱',
  'messenger.email.otherAddress': '使用其他地址',
  'messenger.email.changed': '邮箱已更换',
  'accounts.error.wechat_code_invalid': '微信验证码错误或已过期。请向公众号重新获取。',
  'accounts.error.wechat_server_failed': '无法连接微信服务器。请稍后再试。',
  'accounts.error.telegram_auth_invalid': '这次登录没有 Telegram 的有效签名。请从 Telegram 按钮重新开始。',
  'accounts.error.telegram_auth_expired': '这次 Telegram 登录已过期。请从 Telegram 按钮重新开始。',
  'accounts.error.telegram_auth_used': '这次 Telegram 登录已被使用过。请从 Telegram 按钮重新开始。',
}
