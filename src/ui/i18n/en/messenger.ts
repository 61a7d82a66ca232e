/** Telegram's widget and WeChat's code on the login page and the profile, and their refusals. */
export const messenger = {
  'messenger.telegram.widget': 'Sign in with Telegram',
  'accounts.error.telegram_auth_invalid': 'Telegram did not sign this sign-in. Start again from the Telegram button.',
  'accounts.error.telegram_auth_expired': 'This Telegram sign-in is too old. Start again from the Telegram button.',
  'accounts.error.telegram_auth_used': 'This Telegram sign-in was already used. Start again from the Telegram button.',
} as const
