import { createHmac } from 'node:crypto'
import { GatewayError } from '../../errors.ts'

/** A Spark channel's key: `appid|api_secret|api_key`, as new-api keeps it (iFlytek's console shows the three). */
export interface SparkKey {
  appId: string
  apiSecret: string
  apiKey: string
}

export function parseSparkKey(key: string): SparkKey {
  const parts = key.trim().split('|').map((part) => part.trim())
  if (parts.length !== 3 || parts.some((part) => part === '')) throw new GatewayError(400, 'invalid_channel_key', 'a Spark key is APPID|APISecret|APIKey (three parts joined by |)', 'key')
  return { appId: parts[0]!, apiSecret: parts[1]!, apiKey: parts[2]! }
}

/** The domain each API version serves (iFlytek's docs; new-api's table): Lite, Pro, Max, 4.0 Ultra. */
const DOMAINS: Record<string, string> = { 'v1.1': 'lite', 'v2.1': 'generalv2', 'v3.1': 'generalv3', 'v3.5': 'generalv3.5', 'v4.0': '4.0Ultra' }

/**
 * The API version a model is reached at: the suffix of `SparkDesk-v3.5` (new-api's model names), else the
 * channel's `other` (new-api keeps the version there), else v1.1 (Lite).
 */
export function sparkVersion(model: string, other: string): string {
  const parts = model.split('-')
  const version = parts.length === 2 ? parts[1]! : other.trim() || 'v1.1'
  if (!/^v\d+(\.\d+)?$/.test(version)) throw new Error(`"${version}" is not a Spark API version (v1.1, v3.5, v4.0 …)`)
  return version
}

export function sparkDomain(version: string): string {
  return DOMAINS[version] ?? `general${version}`
}

/**
 * iFlytek's signed handshake URL (its "WebSocket interface authentication" steps): the lines `host: …`, `date: …`
 * (RFC 1123, GMT) and `GET <path> HTTP/1.1` joined by newlines, HMAC-SHA256 with the API secret, base64; that
 * signature in `api_key="…", algorithm="hmac-sha256", headers="host date request-line", signature="…"`, base64
 * again, goes as `authorization` in the query beside `date` and `host`.
 */
export function signedSparkUrl(base: string, key: SparkKey, date: Date): string {
  const url = new URL(base)
  const dateText = date.toUTCString()
  const lines = `host: ${url.host}\ndate: ${dateText}\nGET ${url.pathname} HTTP/1.1`
  const signature = createHmac('sha256', key.apiSecret).update(lines).digest('base64')
  const origin = `api_key="${key.apiKey}", algorithm="hmac-sha256", headers="host date request-line", signature="${signature}"`
  const query = new URLSearchParams({ authorization: Buffer.from(origin).toString('base64'), date: dateText, host: url.host })
  return `${url.origin}${url.pathname}?${query}`
}
