/**
 * AWS Bedrock request authentication: SigV4 signing (aws4fetch's signer) for access keys, or a Bedrock API key
 * sent as `Authorization: Bearer`. Keys are stored as new-api stores them (relay/channel/aws):
 *   `ACCESS_KEY_ID|SECRET_ACCESS_KEY|REGION`  signed with SigV4, service `bedrock`
 *   `API_KEY|REGION`                          a Bedrock API key (long-term `ABSK…` or short-term `bedrock-api-key-…`)
 * new-api has no session-token part, so neither do we; a bare short-term API key (no `|REGION`) is accepted
 * too, since it names its own region. Key material never appears in an error message.
 */
import { AwsV4Signer } from 'aws4fetch'
import { GatewayError } from '../../errors.ts'

export type BedrockKey =
  | { kind: 'sigv4'; accessKeyId: string; secretAccessKey: string; region: string }
  | { kind: 'bearer'; token: string; region: string }

export interface SignableRequest {
  method: string
  url: string
  headers?: Record<string, string>
  /** the exact bytes that will be sent (signed by their SHA-256) */
  body?: string | Uint8Array | ArrayBuffer
}

export interface AwsCredentials {
  accessKeyId: string
  secretAccessKey: string
  sessionToken?: string
}

/** A Bedrock channel key that cannot be used; the message says what shape is expected, never the key itself. */
export class BedrockKeyError extends GatewayError {
  constructor(message: string) {
    super(400, 'invalid_channel_key', message, 'key')
    this.name = 'BedrockKeyError'
  }
}

const BEDROCK_SERVICE = 'bedrock'
const REGION = /^[a-z]{2}(-[a-z]+)+-\d{1,2}$/
const SHORT_TERM_PREFIX = 'bedrock-api-key-'
const FORMAT = 'ACCESS_KEY_ID|SECRET_ACCESS_KEY|REGION or API_KEY|REGION'

function region(value: string): string {
  const r = value.trim()
  if (!REGION.test(r)) throw new BedrockKeyError(`the key's region is not an AWS region name (like us-east-1); expected ${FORMAT}`)
  return r
}

/** A short-term API key is a presigned URL (base64): its credential scope names the region it works in. */
export function shortTermKeyRegion(token: string): string | undefined {
  if (!token.startsWith(SHORT_TERM_PREFIX)) return undefined
  try {
    const url = Buffer.from(token.slice(SHORT_TERM_PREFIX.length), 'base64').toString('utf8')
    const credential = new URL(url.includes('://') ? url : `https://${url}`).searchParams.get('X-Amz-Credential')
    const scope = credential?.split('/')[2]
    return scope && REGION.test(scope) ? scope : undefined
  } catch {
    return undefined
  }
}

export function parseBedrockKey(key: string): BedrockKey {
  const parts = key.trim().split('|').map((p) => p.trim())
  if (parts.some((p) => p === '')) throw new BedrockKeyError(`the key has an empty part; expected ${FORMAT}`)
  if (parts.length === 3) return { kind: 'sigv4', accessKeyId: parts[0]!, secretAccessKey: parts[1]!, region: region(parts[2]!) }
  if (parts.length === 2) return { kind: 'bearer', token: parts[0]!, region: region(parts[1]!) }
  if (parts.length === 1) {
    const r = shortTermKeyRegion(parts[0]!)
    if (r) return { kind: 'bearer', token: parts[0]!, region: r }
    throw new BedrockKeyError(`a Bedrock key needs its region; expected ${FORMAT}`)
  }
  throw new BedrockKeyError(`the key has ${parts.length} parts separated by |; expected ${FORMAT}`)
}

/** The Bedrock runtime root of a region (China regions live under amazonaws.com.cn). */
export function bedrockRuntimeUrl(regionName: string): string {
  return `https://bedrock-runtime.${regionName}.amazonaws.com${regionName.startsWith('cn-') ? '.cn' : ''}`
}

/** SigV4 signing keys are derived per (secret, day, region, service); aws4fetch keeps them in this map. */
const signingKeys = new Map<string, ArrayBuffer>()
const MAX_SIGNING_KEYS = 1024

/** `20150830T123600Z` */
function amzDate(now: Date): string {
  return now.toISOString().replace(/[:-]|\.\d{3}/g, '')
}

/**
 * SigV4 headers for one request: the given headers plus `x-amz-date`, `x-amz-security-token` (with a session
 * token) and `authorization`, names lowercased. Every given header except content-type, content-length and
 * user-agent is signed, so send exactly these; headers added afterwards are not covered and are fine.
 */
export async function signSigV4(
  req: SignableRequest,
  credentials: AwsCredentials,
  scope: { service: string; region: string },
  now: Date = new Date(),
): Promise<Record<string, string>> {
  if (signingKeys.size > MAX_SIGNING_KEYS) signingKeys.clear()
  const signer = new AwsV4Signer({
    method: req.method,
    url: req.url,
    headers: req.headers,
    body: req.body as string | ArrayBuffer | undefined,
    accessKeyId: credentials.accessKeyId,
    secretAccessKey: credentials.secretAccessKey,
    sessionToken: credentials.sessionToken,
    service: scope.service,
    region: scope.region,
    datetime: amzDate(now),
    cache: signingKeys,
  })
  const signed = await signer.sign()
  const out: Record<string, string> = {}
  signed.headers.forEach((value, name) => (out[name.toLowerCase()] = value))
  return out
}

/** The headers to send a Bedrock runtime request with, for a key in new-api's format (or one already parsed). */
export async function signBedrockRequest(req: SignableRequest, key: string | BedrockKey, now?: Date): Promise<Record<string, string>> {
  const k = typeof key === 'string' ? parseBedrockKey(key) : key
  if (k.kind === 'bearer') {
    const out: Record<string, string> = {}
    for (const [name, value] of Object.entries(req.headers ?? {})) out[name.toLowerCase()] = value
    out.authorization = `Bearer ${k.token}`
    return out
  }
  return signSigV4(req, k, { service: BEDROCK_SERVICE, region: k.region }, now)
}
