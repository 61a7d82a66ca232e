import { endpointMap } from '../../../outbound/endpoints'
import type { OptionStore } from '../../../options/store'

// Telegram's login widget: its script from telegram.org draws a frame from oauth.telegram.org
const WIDGET_SCRIPT = 'https://telegram.org/js/telegram-widget.js?22'
const WIDGET_FRAME = 'https://oauth.telegram.org/'

type WidgetDeps = { options: Pick<OptionStore, 'get'>; config: { providerEndpoints: ReadonlyMap<string, URL> } }

/** Telegram sign-in is on: its switch, the bot's name and its token are all set. */
export const telegramOn = (options: Pick<OptionStore, 'get'>) =>
  options.get<boolean>('TelegramOAuthEnabled') && options.get<string>('TelegramBotName') !== '' && options.get<string>('TelegramBotToken') !== ''

/** The widget's script as the browser loads it: Telegram's, or where PROVIDER_ENDPOINTS sends `telegram`. */
export function telegramWidgetUrl(endpoints: ReadonlyMap<string, URL>): string {
  return endpointMap(endpoints).rewrite(new URL(WIDGET_SCRIPT)).url.href
}

/** The origins the console's page may load the widget's script and frame from, while Telegram sign-in is on. */
export function telegramOrigins(deps: WidgetDeps): string[] {
  if (!telegramOn(deps.options)) return []
  const map = endpointMap(deps.config.providerEndpoints)
  return [...new Set([WIDGET_SCRIPT, WIDGET_FRAME].map((url) => map.rewrite(new URL(url)).url.origin))]
}
