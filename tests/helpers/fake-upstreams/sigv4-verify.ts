/**
 * An independent SigV4 verifier for fake AWS upstreams: it rebuilds the canonical request from what arrived (the
 * raw path and query, the signed headers' values, the body bytes) and recomputes the signature with the known
 * secret, as AWS does. Written from the SigV4 specification with node:crypto, sharing nothing with the signer
 * under test (aws4fetch). Failures carry the status, AWS error type and message AWS answers with.
 */
import { createHash, createHmac } from 'node:crypto'

export interface ArrivedRequest {
  method: string
  /** the path exactly as received, percent-escapes kept */
  rawPath: string
  /** the query string as received, without `?` */
  rawQuery: string
  /** lowercased names */
  headers: Record<string, string>
  body: Uint8Array
}

export interface VerifyOptions {
  service: string
  region: string
  /** secret for an access key id, undefined when the id is unknown */
  secretFor(accessKeyId: string): string | undefined
  now?: Date
  /** allowed clock difference in ms (AWS: 5 minutes) */
  skewMs?: number
}

export type VerifyResult =
  | { ok: true; accessKeyId: string; signedHeaders: string[]; canonicalRequest: string }
  | { ok: false; status: number; type: string; message: string }

const MISMATCH =
  'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details.'

/** RFC 3986 encoding of every byte but the unreserved characters (SigV4's UriEncode). */
function uriEncode(text: string): string {
  let out = ''
  for (const byte of Buffer.from(text, 'utf8')) {
    const c = String.fromCharCode(byte)
    out += /[A-Za-z0-9\-._~]/.test(c) ? c : '%' + byte.toString(16).toUpperCase().padStart(2, '0')
  }
  return out
}

const decode = (s: string) => {
  try {
    return decodeURIComponent(s)
  } catch {
    return s
  }
}

/** Each segment of the received path encoded once more (all services but S3). */
function canonicalUri(rawPath: string): string {
  return rawPath === '' ? '/' : rawPath.split('/').map(uriEncode).join('/')
}

function canonicalQuery(rawQuery: string): string {
  if (!rawQuery) return ''
  const pairs = rawQuery
    .split('&')
    .filter((p) => p !== '')
    .map((p) => {
      const eq = p.indexOf('=')
      const [k, v] = eq === -1 ? [p, ''] : [p.slice(0, eq), p.slice(eq + 1)]
      return [uriEncode(decode(k)), uriEncode(decode(v))] as const
    })
  pairs.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0))
  return pairs.map(([k, v]) => `${k}=${v}`).join('&')
}

const sha256Hex = (data: string | Uint8Array) => createHash('sha256').update(data).digest('hex')
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest()

function signingKey(secret: string, date: string, region: string, service: string): Buffer {
  return hmac(hmac(hmac(hmac('AWS4' + secret, date), region), service), 'aws4_request')
}

function parseAuthorization(header: string): { credential: string; signedHeaders: string; signature: string } | undefined {
  const m = /^AWS4-HMAC-SHA256 (.*)$/.exec(header.trim())
  if (!m) return undefined
  const fields: Record<string, string> = {}
  for (const part of m[1]!.split(',')) {
    const eq = part.indexOf('=')
    if (eq > 0) fields[part.slice(0, eq).trim()] = part.slice(eq + 1).trim()
  }
  const { Credential: credential, SignedHeaders: signedHeaders, Signature: signature } = fields
  return credential && signedHeaders && signature ? { credential, signedHeaders, signature } : undefined
}

const fail = (status: number, type: string, message: string): VerifyResult => ({ ok: false, status, type, message })

function parseAmzDate(s: string): number {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(s)
  return m ? Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!) : NaN
}

export function verifySigV4(req: ArrivedRequest, opts: VerifyOptions): VerifyResult {
  const header = req.headers['authorization']
  if (!header) return fail(403, 'MissingAuthenticationTokenException', 'Missing Authentication Token')
  const auth = parseAuthorization(header)
  if (!auth) return fail(403, 'IncompleteSignatureException', `Authorization header requires 'Credential', 'Signature' and 'SignedHeaders' parameters.`)
  const [accessKeyId, date, region, service, terminator] = auth.credential.split('/')
  const secret = accessKeyId ? opts.secretFor(accessKeyId) : undefined
  if (!secret) return fail(403, 'UnrecognizedClientException', 'The security token included in the request is invalid.')
  if (terminator !== 'aws4_request' || !date) return fail(403, 'IncompleteSignatureException', 'Credential should be scoped with a valid terminator: aws4_request')
  if (region !== opts.region) return fail(403, 'InvalidSignatureException', `Credential should be scoped to a valid region. `)
  if (service !== opts.service) return fail(403, 'InvalidSignatureException', `Credential should be scoped to correct service: '${opts.service}'. `)
  const signed = auth.signedHeaders.split(';')
  const amz = req.headers['x-amz-date'] ?? ''
  if (!signed.includes('host') || !signed.includes('x-amz-date') || !amz.startsWith(date))
    return fail(403, 'InvalidSignatureException', MISMATCH)
  const now = (opts.now ?? new Date()).getTime()
  if (Math.abs(now - parseAmzDate(amz)) > (opts.skewMs ?? 5 * 60_000) || Number.isNaN(parseAmzDate(amz)))
    return fail(403, 'InvalidSignatureException', `Signature expired: ${amz} is now earlier or later than the allowed 5 minutes.`)
  const canonicalHeaders = signed.map((name) => `${name}:${(req.headers[name] ?? '').trim().replace(/\s+/g, ' ')}\n`).join('')
  const payloadHash = req.headers['x-amz-content-sha256'] ?? sha256Hex(req.body)
  const canonicalRequest = [req.method.toUpperCase(), canonicalUri(req.rawPath), canonicalQuery(req.rawQuery), canonicalHeaders, auth.signedHeaders, payloadHash].join('\n')
  const scope = `${date}/${region}/${service}/aws4_request`
  const stringToSign = ['AWS4-HMAC-SHA256', amz, scope, sha256Hex(canonicalRequest)].join('\n')
  const expected = createHmac('sha256', signingKey(secret, date, region, service)).update(stringToSign).digest('hex')
  if (expected !== auth.signature) return fail(403, 'InvalidSignatureException', MISMATCH)
  return { ok: true, accessKeyId: accessKeyId!, signedHeaders: signed, canonicalRequest }
}

/** The raw path and query of a request URL as the server received it (WHATWG URL keeps percent-escapes). */
export function rawTarget(url: string): { rawPath: string; rawQuery: string } {
  const u = new URL(url)
  return { rawPath: u.pathname, rawQuery: u.search.replace(/^\?/, '') }
}
