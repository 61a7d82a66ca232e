import type { CustomOAuthRepo } from '../../db/repos/custom-oauth'
import type { OptionStore } from '../../options/store'
import { telegramOn, telegramWidgetUrl } from './telegram/widget'
import { wechatOn } from './wechat/server'

/**
 * What the login page needs to show the providers, under new-api's /api/status names (no secret: client ids are
 * public, they are in every authorization URL).
 */
export function oauthStatus(options: Pick<OptionStore, 'get'>) {
  const on = (enabled: string, clientId: string) => options.get<boolean>(enabled) && options.get<string>(clientId) !== ''
  return {
    github_oauth: on('GitHubOAuthEnabled', 'GitHubClientId'),
    github_client_id: options.get<string>('GitHubClientId'),
    discord_oauth: on('discord.enabled', 'discord.client_id'),
    discord_client_id: options.get<string>('discord.client_id'),
    linuxdo_oauth: on('LinuxDOOAuthEnabled', 'LinuxDOClientId'),
    linuxdo_client_id: options.get<string>('LinuxDOClientId'),
    linuxdo_minimum_trust_level: options.get<number>('LinuxDOMinimumTrustLevel'),
    oidc_enabled: on('oidc.enabled', 'oidc.client_id') && options.get<string>('oidc.well_known') !== '',
    oidc_client_id: options.get<string>('oidc.client_id'),
    oidc_display_name: options.get<string>('oidc.display_name') || 'OIDC',
  }
}

/** The custom providers that are on, for the login page's buttons (new-api's `custom_oauth_providers`; no secret). */
export async function customOAuthStatus(repo: Pick<CustomOAuthRepo, 'list'>) {
  const rows = await repo.list()
  return rows.filter((row) => row.enabled && row.clientSecret !== '').map((row) => ({ id: row.id, name: row.name, slug: row.slug, icon: row.icon, client_id: row.clientId }))
}

/** Telegram's widget and the WeChat server, under new-api's /api/status names (the bot's name is public: the widget shows it). */
export function messengerStatus(deps: { options: Pick<OptionStore, 'get'>; config: { providerEndpoints: ReadonlyMap<string, URL> } }) {
  const { options } = deps
  return {
    telegram_oauth: telegramOn(options),
    telegram_bot_name: options.get<string>('TelegramBotName'),
    // Telegram's script, or where PROVIDER_ENDPOINTS' `telegram` entry moves it (the console's CSP allows it)
    telegram_widget_url: telegramWidgetUrl(deps.config.providerEndpoints),
    wechat_login: wechatOn(options),
    wechat_qrcode: options.get<string>('WeChatAccountQRCodeImageURL'),
    // mail can be sent: the profile offers changing the e-mail
    email_change: options.get<string>('SMTPServer') !== '',
  }
}
