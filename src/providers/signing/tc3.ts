import { createHash, createHmac } from 'node:crypto'

/**
 * Tencent Cloud API 3.0's TC3-HMAC-SHA256 (cloud.tencent.com/document/api/213/30654), for a POST with a JSON body:
 * the canonical request (method, `/`, no query, the `content-type`, `host` and `x-tc-action` headers, the body's
 * SHA-256), the string to sign (algorithm, timestamp, `<UTC date>/<service>/tc3_request`, the request's SHA-256), and
 * the key derived from `TC3<SecretKey>` through the date, the service and `tc3_request`.
 */
export interface Tc3Input {
  secretId: string
  secretKey: string
  service: string
  host: string
  action: string
  /** unix seconds */
  timestamp: number
  body: string
}

const sha256Hex = (text: string) => createHash('sha256').update(text).digest('hex')
const hmac = (key: string | Buffer, text: string) => createHmac('sha256', key).update(text).digest()

export function tc3Authorization(input: Tc3Input): string {
  const signedHeaders = 'content-type;host;x-tc-action'
  const canonicalHeaders = `content-type:application/json\nhost:${input.host}\nx-tc-action:${input.action.toLowerCase()}\n`
  const canonicalRequest = ['POST', '/', '', canonicalHeaders, signedHeaders, sha256Hex(input.body)].join('\n')
  const date = new Date(input.timestamp * 1000).toISOString().slice(0, 10)
  const scope = `${date}/${input.service}/tc3_request`
  const stringToSign = ['TC3-HMAC-SHA256', String(input.timestamp), scope, sha256Hex(canonicalRequest)].join('\n')
  const signingKey = hmac(hmac(hmac(`TC3${input.secretKey}`, date), input.service), 'tc3_request')
  const signature = createHmac('sha256', signingKey).update(stringToSign).digest('hex')
  return `TC3-HMAC-SHA256 Credential=${input.secretId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`
}
