/** Telegram's widget and WeChat's code on the login page and the profile, and their refusals. */
export const messenger = {
  'messenger.telegram.widget': 'Sign in with Telegram',
  'messenger.wechat.button': 'Continue with WeChat',
  'messenger.wechat.form': 'WeChat code',
  'messenger.wechat.qrAlt': 'QR code of the WeChat official account',
  'messenger.wechat.lead': 'Scan the QR code with WeChat, follow the account and send it “验证码”; type the code it replies.',
  'messenger.wechat.code': 'Code from WeChat',
  'messenger.wechat.signIn': 'Sign in with WeChat',
  'messenger.wechat.bind': 'Bind WeChat',
  'messenger.wechat.bound': '{name} bound',
  'accounts.error.wechat_code_invalid': 'This WeChat code is wrong or has expired. Ask the official account for a new one.',
  'accounts.error.wechat_server_failed': 'The WeChat server could not be reached. Try again later.',
  'accounts.error.telegram_auth_invalid': 'Telegram did not sign this sign-in. Start again from the Telegram button.',
  'accounts.error.telegram_auth_expired': 'This Telegram sign-in is too old. Start again from the Telegram button.',
  'accounts.error.telegram_auth_used': 'This Telegram sign-in was already used. Start again from the Telegram button.',
} as const
