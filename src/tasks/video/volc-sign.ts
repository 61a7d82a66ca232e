import { createHash, createHmac } from 'node:crypto'

const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest()
const sha256 = (data: string) => createHash('sha256').update(data).digest('hex')

/** `20250102T030405Z` and `20250102` of a time, as the signature wants them. */
function stamps(nowMs: number): { xDate: string; day: string } {
  const xDate = new Date(nowMs).toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '')
  return { xDate, day: xDate.slice(0, 8) }
}

/**
 * Volcengine's request signature (its OpenAPI "HMAC-SHA256" scheme, SigV4's shape): a canonical request over the
 * method, path, sorted query, the signed headers (host, x-date, x-content-sha256, content-type) and the body's
 * SHA-256, signed with a key derived from the secret key, the day, the region and the service.
 */
export function volcSign(url: URL, method: string, body: string, accessKey: string, secretKey: string, nowMs: number, region = 'cn-north-1', service = 'cv'): Record<string, string> {
  const { xDate, day } = stamps(nowMs)
  const payloadHash = sha256(body)
  const query = [...url.searchParams.entries()]
    .sort(([a, x], [b, y]) => (a === b ? (x < y ? -1 : 1) : a < b ? -1 : 1))
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
    .join('&')
  const headers: Record<string, string> = { 'content-type': 'application/json', host: url.host, 'x-content-sha256': payloadHash, 'x-date': xDate }
  const signed = Object.keys(headers).sort()
  const canonical = [method, url.pathname || '/', query, signed.map((name) => `${name}:${headers[name]!.trim()}\n`).join(''), signed.join(';'), payloadHash].join('\n')
  const scope = `${day}/${region}/${service}/request`
  const toSign = ['HMAC-SHA256', xDate, scope, sha256(canonical)].join('\n')
  const key = hmac(hmac(hmac(hmac(secretKey, day), region), service), 'request')
  const signature = createHmac('sha256', key).update(toSign).digest('hex')
  const { host: _host, ...sent } = headers
  return { ...sent, authorization: `HMAC-SHA256 Credential=${accessKey}/${scope}, SignedHeaders=${signed.join(';')}, Signature=${signature}` }
}
