/**
 * Google service account keys: the JSON key file a Vertex AI channel holds as its key (new-api stores the whole
 * file, as downloaded from the console), parsed and checked, and the RS256 JWT assertion signed with it that the
 * account's token_uri trades for an OAuth access token (RFC 7523 jwt-bearer grant). WebCrypto only.
 * The access tokens themselves are minted and cached in google-access-token.ts.
 */
import { BadRequestError } from '../../errors'

export const CLOUD_PLATFORM_SCOPE = 'https://www.googleapis.com/auth/cloud-platform'
/** Where every Google service account's tokens come from (the key file's token_uri). */
export const GOOGLE_TOKEN_URI = 'https://oauth2.googleapis.com/token'
/** Google refuses an assertion that lives longer than an hour. */
const ASSERTION_LIFETIME_SECONDS = 3600

export interface ServiceAccount {
  projectId: string
  clientEmail: string
  /** PKCS#8 PEM (`-----BEGIN PRIVATE KEY-----`), newlines restored */
  privateKey: string
  /** sent as the JWT's `kid` so Google picks the right public key at once */
  privateKeyId?: string
  tokenUri: string
}

/** A channel key that is not a usable service account: 400, naming the channel's `key` field, never quoting it. */
export class ServiceAccountError extends BadRequestError {
  constructor(message: string) {
    super(message, 'key')
  }
}

const REQUIRED = ['project_id', 'client_email', 'private_key']
const PEM = /-----BEGIN PRIVATE KEY-----([\s\S]*?)-----END PRIVATE KEY-----/
const PARSED_LIMIT = 256
const parsed = new Map<string, ServiceAccount | ServiceAccountError>()

/** Parse and check a service account key (its JSON text or the parsed object). Throws ServiceAccountError. */
export function parseServiceAccount(input: unknown): ServiceAccount {
  const json = typeof input === 'string' ? parseJson(input) : input
  if (Array.isArray(json)) throw new ServiceAccountError('the key holds a JSON array: give one service account JSON key per channel key')
  if (typeof json !== 'object' || json === null) throw new ServiceAccountError('the key must be a Google service account JSON key (an object)')
  const raw = json as Record<string, unknown>
  if (raw.type !== undefined && raw.type !== 'service_account') {
    throw new ServiceAccountError(`the key is a Google "${String(raw.type)}" credential; Vertex AI channels need a service account JSON key ("type": "service_account")`)
  }
  const missing: string[] = REQUIRED.filter((field) => !nonEmpty(raw[field]))
  if (raw.token_uri !== undefined && !nonEmpty(raw.token_uri)) missing.push('token_uri')
  if (missing.length > 0) throw new ServiceAccountError(`the service account JSON key is missing ${missing.join(', ')}`)
  const clientEmail = (raw.client_email as string).trim()
  if (!clientEmail.includes('@')) throw new ServiceAccountError('client_email of the service account JSON key is not an email address')
  return {
    projectId: (raw.project_id as string).trim(),
    clientEmail,
    privateKey: checkPem(raw.private_key as string),
    privateKeyId: typeof raw.private_key_id === 'string' && raw.private_key_id ? raw.private_key_id : undefined,
    // new-api never reads token_uri (it always posts to Google's): a key trimmed to the fields it needs still works
    tokenUri: raw.token_uri === undefined ? GOOGLE_TOKEN_URI : checkTokenUri((raw.token_uri as string).trim()),
  }
}

/** parseServiceAccount for a channel key string, remembered (the relay asks for every request). */
export function serviceAccountOf(key: string): ServiceAccount {
  let hit = parsed.get(key)
  if (hit === undefined) {
    try {
      hit = parseServiceAccount(key)
    } catch (error) {
      if (!(error instanceof ServiceAccountError)) throw error
      hit = error
    }
    if (parsed.size >= PARSED_LIMIT) parsed.delete(parsed.keys().next().value!)
    parsed.set(key, hit)
  }
  if (hit instanceof ServiceAccountError) throw hit
  return hit
}

const nonEmpty = (value: unknown) => typeof value === 'string' && value.trim() !== ''

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text.trim())
  } catch {
    // the parser's message quotes the text, which is the secret
    throw new ServiceAccountError('the key is not JSON: a Vertex AI channel\'s key is the service account\'s JSON key file, pasted whole')
  }
}

function checkPem(text: string): string {
  // keys pasted through a shell or an .env file often arrive with their newlines still escaped
  const pem = text.replace(/\\r/g, '').replace(/\\n/g, '\n').replace(/\r/g, '')
  if (/BEGIN RSA PRIVATE KEY/.test(pem)) throw new ServiceAccountError('private_key is a PKCS#1 key (BEGIN RSA PRIVATE KEY); Google service account keys are PKCS#8 (BEGIN PRIVATE KEY)')
  if (/BEGIN ENCRYPTED PRIVATE KEY/.test(pem)) throw new ServiceAccountError('private_key is encrypted; give the unencrypted service account JSON key')
  const body = PEM.exec(pem)?.[1]?.replace(/\s+/g, '')
  if (!body || !/^[A-Za-z0-9+/]+={0,2}$/.test(body)) throw new ServiceAccountError('private_key is not a PEM private key (-----BEGIN PRIVATE KEY----- … -----END PRIVATE KEY-----)')
  return pem.trim() + '\n'
}

function checkTokenUri(uri: string): string {
  let url: URL
  try {
    url = new URL(uri)
  } catch {
    throw new ServiceAccountError('token_uri of the service account JSON key is not a URL')
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new ServiceAccountError('token_uri of the service account JSON key is not an http(s) URL')
  return url.href
}

/** The key's DER bytes (checkPem made sure the body is base64). */
function pemBytes(pem: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(Buffer.from(PEM.exec(pem)![1]!.replace(/\s+/g, ''), 'base64'))
}

/** Import the account's private key for RS256 signing. Throws ServiceAccountError when it is not an RSA PKCS#8 key. */
export async function importPrivateKey(account: ServiceAccount): Promise<CryptoKey> {
  try {
    return await crypto.subtle.importKey('pkcs8', pemBytes(account.privateKey), { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }, false, ['sign'])
  } catch {
    throw new ServiceAccountError(`private_key of ${account.clientEmail} is not an RSA private key in PKCS#8 form (the key file may be damaged)`)
  }
}

const encoder = new TextEncoder()
const base64url = (bytes: Uint8Array | ArrayBuffer) => Buffer.from(bytes as ArrayBuffer).toString('base64url')
const jsonPart = (value: object) => base64url(encoder.encode(JSON.stringify(value)))

/** The signed JWT assertion for the token endpoint: iss = the account, aud = its token_uri, valid one hour from `issuedAt` (seconds). */
export async function signAssertion(account: ServiceAccount, key: CryptoKey, issuedAt: number, scope = CLOUD_PLATFORM_SCOPE): Promise<string> {
  const header = { alg: 'RS256', typ: 'JWT', ...(account.privateKeyId ? { kid: account.privateKeyId } : {}) }
  const claims = { iss: account.clientEmail, scope, aud: account.tokenUri, iat: issuedAt, exp: issuedAt + ASSERTION_LIFETIME_SECONDS }
  const unsigned = `${jsonPart(header)}.${jsonPart(claims)}`
  const signature = await crypto.subtle.sign('RSASSA-PKCS1-v1_5', key, encoder.encode(unsigned))
  return `${unsigned}.${base64url(signature)}`
}
