import type { oauth as en } from '../en/oauth'

/** 第三方登录：登录页的按钮与回调页。 */
export const oauth: Record<keyof typeof en, string> = {
  'oauth.buttons.label': '使用其他账号登录',
  'oauth.buttons.continueWith': '使用 {name} 继续',
  'oauth.callback.title': '正在登录',
  'oauth.callback.working': '正在核验登录服务商的回应…',
  'oauth.callback.back': '返回登录页',
}
