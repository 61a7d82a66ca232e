import { OverrideError } from './param-override'

/** new-api's channel `proxy` (in `setting`): an HTTP(S) or SOCKS5 proxy every call of the channel goes through. */
const SCHEMES = new Set(['http:', 'https:', 'socks5:', 'socks5h:'])

export function parseProxy(value: unknown): string | undefined {
  if (value === undefined || value === null || value === '') return undefined
  if (typeof value !== 'string' || value.length > 2000) throw new OverrideError('must be a URL such as http://host:3128 or socks5://user:pass@host:1080')
  let url: URL
  try {
    url = new URL(value.trim())
  } catch {
    throw new OverrideError('is not a URL (http://host:port, https://host:port or socks5://host:port)')
  }
  if (!SCHEMES.has(url.protocol)) throw new OverrideError(`${url.protocol} is not a proxy scheme Tollgate speaks (http, https, socks5)`)
  if (!url.hostname) throw new OverrideError('has no host')
  if ((url.pathname && url.pathname !== '/') || url.search || url.hash) throw new OverrideError('must be only scheme, credentials, host and port')
  return url.href.replace(/\/$/, '')
}

/** The proxy as the console shows it: its password never leaves the server. */
export function maskedProxy(proxy: string): string {
  try {
    const url = new URL(proxy)
    if (!url.password) return proxy
    url.password = '****'
    return url.href.replace(/\/$/, '')
  } catch {
    return ''
  }
}

/** A proxy sent back masked (the form's round trip) is the stored one: its password is kept. */
export function unmaskedProxy(sent: string, stored: string | undefined): string {
  if (!stored || !sent.includes('****')) return sent
  return maskedProxy(stored) === sent ? stored : sent
}
