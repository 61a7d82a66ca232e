import { BadRequestError } from '../errors'

/**
 * Check and normalise a channel base URL: http/https only, no credentials, no query or fragment.
 * Trailing slashes are dropped; '' stays '' (the provider default applies).
 */
export function normalizeBaseUrl(raw: string, field = 'base_url'): string {
  const text = raw.trim()
  if (!text) return ''
  let url: URL
  try {
    url = new URL(text)
  } catch {
    throw new BadRequestError(`${field} is not a valid URL: ${JSON.stringify(text)}`, field)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new BadRequestError(`${field} must use http or https`, field)
  if (url.username || url.password) throw new BadRequestError(`${field} must not contain credentials (user:pass@)`, field)
  if (url.search || url.hash || text.includes('?') || text.includes('#')) {
    throw new BadRequestError(`${field} must not contain a query or fragment`, field)
  }
  if (!url.hostname) throw new BadRequestError(`${field} needs a host`, field)
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`
}

const VERSION_SEGMENT = /^v\d+[a-z0-9]*$/i

/**
 * Join a base URL (provider root, or a user URL that already ends in part of the path) with an endpoint
 * path without doubling: `https://x/v1` + `/v1/chat/completions` → `https://x/v1/chat/completions`,
 * `https://x/anthropic` + `/anthropic/v1/messages` → `https://x/anthropic/v1/messages`. When the base ends
 * in a different API version than the path starts with (`/v1` vs `/v1beta`), the base's version wins.
 */
export function joinUrl(base: string, path: string): string {
  const url = new URL(base)
  const queryAt = path.indexOf('?')
  const pathPart = queryAt < 0 ? path : path.slice(0, queryAt)
  const query = queryAt < 0 ? '' : path.slice(queryAt)
  const baseSegs = url.pathname.split('/').filter(Boolean)
  const pathSegs = pathPart.split('/').filter(Boolean)
  let overlap = 0
  for (let k = Math.min(baseSegs.length, pathSegs.length); k > 0; k--) {
    if (baseSegs.slice(-k).every((seg, i) => seg === pathSegs[i])) {
      overlap = k
      break
    }
  }
  if (!overlap && VERSION_SEGMENT.test(baseSegs.at(-1) ?? '') && VERSION_SEGMENT.test(pathSegs[0] ?? '')) overlap = 1
  const segs = [...baseSegs, ...pathSegs.slice(overlap)]
  return `${url.origin}/${segs.join('/')}${query}`
}
