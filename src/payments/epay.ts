import { createHash, timingSafeEqual } from 'node:crypto'
import type { OptionStore } from '../options/store'
import type { EpaySettings } from './settings'

/**
 * The 易支付 (EPay) protocol: parameters sorted by name, empty values and `sign`/`sign_type` left out, joined
 * as `a=1&b=2`, the merchant key appended, MD5 in lower-case hex. The same rule signs our submit and checks the
 * gateway's notify.
 */
function epaySign(params: Record<string, string>, key: string): string {
  const text = Object.keys(params)
    .filter((name) => name !== 'sign' && name !== 'sign_type' && params[name] !== '' && params[name] !== undefined)
    .sort()
    .map((name) => `${name}=${params[name]}`)
    .join('&')
  return createHash('md5').update(text + key, 'utf8').digest('hex')
}

/** Whether a notify's `sign` is the merchant's signature of its other parameters (compared in constant time). */
export function epayVerify(params: Record<string, string>, key: string): boolean {
  const given = params.sign ?? ''
  if (!/^[0-9a-f]{32}$/i.test(given)) return false
  return timingSafeEqual(Buffer.from(given.toLowerCase()), Buffer.from(epaySign(params, key)))
}

export interface EpaySubmit {
  /** where the browser posts the form: `<PayAddress>/submit.php` */
  url: string
  params: Record<string, string>
}

/** The signed form the browser posts to the EPay gateway. */
export function epaySubmit(settings: EpaySettings, order: { tradeNo: string; method: string; name: string; money: string; notifyUrl: string; returnUrl: string }): EpaySubmit {
  const params: Record<string, string> = {
    pid: settings.pid,
    type: order.method,
    out_trade_no: order.tradeNo,
    notify_url: order.notifyUrl,
    return_url: order.returnUrl,
    name: order.name,
    money: order.money,
  }
  params.sign = epaySign(params, settings.key)
  params.sign_type = 'MD5'
  return { url: `${settings.address}/submit.php`, params }
}

/** Minor units as EPay writes money: yuan with two decimals. */
export const centsText = (cents: number): string => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`

/** EPay's `money` ("12.30", "12.3", "12") in minor units, or undefined when it is not an amount. */
export function centsOf(money: string): number | undefined {
  const match = /^(\d{1,9})(?:\.(\d{1,2}))?$/.exec(money.trim())
  if (!match) return undefined
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'))
}

/** The EPay gateway's origin (`PayAddress`), where the wallet posts its signed form: the console's CSP allows it. */
export function epayFormOrigins(options: Pick<OptionStore, 'get'>): string[] {
  const address = options.get<string>('PayAddress')
  try {
    return address ? [new URL(address).origin] : []
  } catch {
    return []
  }
}
