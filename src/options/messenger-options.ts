import type { OptionDefinition } from './option-definition'

// a sealed secret: ~4/3 of the plaintext and the IV
const sealedText = (value: unknown) => ((value as string).length > 2048 ? 'must be at most 1,500 characters' : undefined)
/** A bot's username as @BotFather gives it (5–32 letters, digits, underscores), without the @. */
const botName = (value: unknown) => {
  const text = value as string
  return text === '' || /^[A-Za-z][A-Za-z0-9_]{4,31}$/.test(text) ? undefined : "must be the bot's username without @ (like TollgateLoginBot)"
}
/** '' or an absolute http(s) URL without credentials, query or trailing slash (paths are added to it). */
const serverBase = (value: unknown) => {
  const text = value as string
  if (text === '') return undefined
  try {
    const url = new URL(text)
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must be an http(s) URL'
    if (url.username || url.password || url.search || url.hash) return 'must have no credentials, query or fragment'
    if (text.endsWith('/')) return 'must not end with a slash'
  } catch {
    return 'must be an absolute http(s) URL (or empty)'
  }
  return undefined
}
/** '' or an http(s) URL (the login page shows it as an image; the console's CSP allows its origin). */
const imageUrl = (value: unknown) => {
  const text = value as string
  if (text === '') return undefined
  try {
    const url = new URL(text)
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'must be an http(s) URL'
    if (url.username || url.password) return 'must not carry credentials'
  } catch {
    return 'must be an absolute http(s) URL (or empty)'
  }
  return text.length > 1024 ? 'must be at most 1,024 characters' : undefined
}

/** Telegram's login widget and new-api's WeChat server (docs/accounts.md), under new-api's option names (model/option.go). */
export const MESSENGER_OPTIONS: Record<string, OptionDefinition> = {
  TelegramOAuthEnabled: { type: 'boolean', default: 'false', description: "sign-in and sign-up with Telegram's login widget" },
  TelegramBotName: { type: 'string', default: '', description: "the login bot's username (without @); its domain must be set with @BotFather's /setdomain", check: botName },
  TelegramBotToken: { type: 'string', default: '', description: "the login bot's token from @BotFather: checks the widget's data (stored encrypted, never shown)", check: sealedText, secret: true },
  WeChatAuthEnabled: { type: 'boolean', default: 'false', description: 'sign-in and sign-up with WeChat through a WeChat server (new-api\'s protocol)' },
  WeChatServerAddress: { type: 'string', default: '', description: "the WeChat server's base URL (https://wechat.example.com); Tollgate asks its /api/wechat/user?code=", check: serverBase },
  WeChatServerToken: { type: 'string', default: '', description: "the WeChat server's access token (sent as Authorization; stored encrypted, never shown)", check: sealedText, secret: true },
  WeChatAccountQRCodeImageURL: { type: 'string', default: '', description: "the official account's QR code image (an http(s) URL; use https for an https console), shown on the login page", check: imageUrl },
}
