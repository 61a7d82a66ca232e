import type { ContentOrigins } from '../site/logo'
import type { OptionStore } from '../../options/store'
import { telegramOrigins } from './telegram/widget'
import { wechatOn } from './wechat/server'

type OriginDeps = { options: Pick<OptionStore, 'get'>; config: { providerEndpoints: ReadonlyMap<string, URL> } }

/** The console page's CSP with the ways in that load something from elsewhere: Telegram's widget, WeChat's QR code image. */
export function withAccountOrigins(deps: OriginDeps, origins: ContentOrigins): ContentOrigins {
  const qr = wechatOn(deps.options) ? deps.options.get<string>('WeChatAccountQRCodeImageURL') : ''
  return {
    ...origins,
    img: [...origins.img, ...(/^https?:\/\//.test(qr) ? [new URL(qr).origin] : [])],
    widget: [...(origins.widget ?? []), ...telegramOrigins(deps)],
  }
}
