/**
 * A fake Google OAuth token endpoint for service account keys (the jwt-bearer grant Vertex AI channels use), on a
 * free port, checking what Google checks: the form, the grant type, the RS256 signature with the public key of the
 * key it issued (found by `kid`, else by the account), iss, aud = its own token URL, the cloud-platform scope and
 * a lifetime of at most an hour around now. Answers `{access_token, expires_in, token_type}` or Google's
 * `{error, error_description}` with a 400.
 *
 *   const google = await startFakeGoogleToken()
 *   const sa = await google.createAccount({ projectId: 'my-project' })   // sa.json is the key file text
 *   … a channel with key sa.json mints tokens at google.tokenUri …
 *   expect(google.exchanges).toHaveLength(1)
 *   await google.stop()
 */
import { randomString, sleep } from './shared'

const GRANT_TYPE = 'urn:ietf:params:oauth:grant-type:jwt-bearer'
const CLOUD_PLATFORM = 'https://www.googleapis.com/auth/cloud-platform'
const SHORT_LIVED = 'Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe. Check your iat and exp values in the JWT claim.'
/** Google allows this much clock skew on iat (seconds). */
const SKEW = 300

export interface TestServiceAccount {
  /** the key file's text, as a channel key holds it */
  json: string
  /** the same, parsed (snake_case, as Google writes it) */
  fields: Record<string, string>
  clientEmail: string
  projectId: string
  privateKeyId: string
  publicKey: CryptoKey
}

/** A throwaway RSA-2048 service account key file whose token_uri is `tokenUri`. Not registered with any fake. */
export async function createTestServiceAccount(options: { tokenUri: string; projectId?: string; clientEmail?: string }): Promise<TestServiceAccount> {
  const pair = await crypto.subtle.generateKey(
    { name: 'RSASSA-PKCS1-v1_5', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' },
    true,
    ['sign', 'verify'],
  )
  const der = Buffer.from(await crypto.subtle.exportKey('pkcs8', pair.privateKey)).toString('base64')
  const pem = `-----BEGIN PRIVATE KEY-----\n${der.match(/.{1,64}/g)!.join('\n')}\n-----END PRIVATE KEY-----\n`
  const projectId = options.projectId ?? `test-project-${randomString(6).toLowerCase()}`
  const clientEmail = options.clientEmail ?? `tollgate-test@${projectId}.iam.gserviceaccount.com`
  const privateKeyId = randomString(40, '0123456789abcdef')
  const fields = {
    type: 'service_account', project_id: projectId, private_key_id: privateKeyId, private_key: pem,
    client_email: clientEmail, client_id: randomString(21, '0123456789'),
    auth_uri: 'https://accounts.google.com/o/oauth2/auth', token_uri: options.tokenUri,
    auth_provider_x509_cert_url: 'https://www.googleapis.com/oauth2/v1/certs',
    client_x509_cert_url: `https://www.googleapis.com/robot/v1/metadata/x509/${encodeURIComponent(clientEmail)}`,
    universe_domain: 'googleapis.com',
  }
  return { json: JSON.stringify(fields, null, 2), fields, clientEmail, projectId, privateKeyId, publicKey: pair.publicKey }
}

interface TokenExchange {
  /** the fake's clock at arrival (ms) */
  at: number
  status: number
  /** the decoded JWT header and claims, when the assertion could be decoded */
  header?: Record<string, unknown>
  claims?: Record<string, unknown>
  /** Google's error code for a refused exchange */
  error?: string
}

export interface IssuedToken {
  clientEmail: string
  projectId: string
  /** ms by the fake's clock */
  expiresAt: number
}

/** A scripted failure: Google's error shape, or a raw body (a function gets the assertion, to echo it like a broken proxy). */
interface FailureReply {
  status: number
  error: string
  description?: string
  raw?: string | ((assertion: string) => string)
}

export interface FakeGoogleTokenOptions {
  /** clock in ms (default Date.now); share it with the token source under test */
  now?: () => number
  /** expires_in of issued tokens (default 3599, as Google answers) */
  expiresIn?: number
  /** wait this long before answering (lets concurrent callers pile up) */
  delayMs?: number
  /** the token URL it stands in for (the audience it expects and the token_uri of its accounts; default its own, url + '/token'), e.g. Google's behind PROVIDER_ENDPOINTS */
  tokenUri?: string
}

export interface FakeGoogleToken {
  /** http://127.0.0.1:PORT */
  url: string
  /** the token endpoint: url + '/token' */
  tokenUri: string
  /** a new key file pointing at this endpoint, its public key registered */
  createAccount(options?: { projectId?: string; clientEmail?: string }): Promise<TestServiceAccount>
  /** accept assertions from a key made elsewhere */
  register(account: TestServiceAccount): void
  /** every POST received, in order */
  exchanges: TokenExchange[]
  /** who a token was issued to, when it is known and unexpired by the fake's clock */
  tokenInfo(token: string): IssuedToken | undefined
  /** the next `count` exchanges answer this instead of a token (default Google's 503 backendError shape) */
  failNext(count: number, reply?: FailureReply): void
  setExpiresIn(seconds: number): void
  setDelay(ms: number): void
  revoke(token: string): void
  stop(): Promise<void>
}

const b64json = (part: string): Record<string, unknown> | undefined => {
  try {
    const value = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'))
    return typeof value === 'object' && value !== null ? value : undefined
  } catch {
    return undefined
  }
}

export async function startFakeGoogleToken(options: FakeGoogleTokenOptions = {}): Promise<FakeGoogleToken> {
  const now = options.now ?? Date.now
  let expiresIn = options.expiresIn ?? 3599
  let delayMs = options.delayMs ?? 0
  let failures: { count: number; reply: FailureReply } | undefined
  const accounts = new Map<string, TestServiceAccount>() // by client_email
  const issued = new Map<string, IssuedToken>()
  const exchanges: TokenExchange[] = []
  let tokenUri = ''

  const refuse = (rec: TokenExchange, status: number, error: string, description: string) => {
    Object.assign(rec, { status, error })
    return Response.json({ error, error_description: description }, { status, headers: { 'content-type': 'application/json; charset=utf-8' } })
  }

  async function handle(req: Request): Promise<Response> {
    const rec: TokenExchange = { at: now(), status: 0 }
    if (new URL(req.url).pathname !== '/token') return new Response('Not Found', { status: 404 })
    exchanges.push(rec)
    if (delayMs) await sleep(delayMs)
    if (req.method !== 'POST') return refuse(rec, 405, 'invalid_request', 'Method not allowed')
    if (!(req.headers.get('content-type') ?? '').startsWith('application/x-www-form-urlencoded'))
      return refuse(rec, 400, 'invalid_request', 'Invalid Content-Type; expected application/x-www-form-urlencoded')
    const form = new URLSearchParams(await req.text())
    const grant = form.get('grant_type') ?? ''
    if (grant !== GRANT_TYPE) return refuse(rec, 400, 'unsupported_grant_type', `Invalid grant_type: ${grant}`)
    const assertion = form.get('assertion')
    if (!assertion) return refuse(rec, 400, 'invalid_request', 'Missing required parameter: assertion')
    const parts = assertion.split('.')
    const header = parts.length === 3 ? b64json(parts[0]!) : undefined
    const claims = parts.length === 3 ? b64json(parts[1]!) : undefined
    Object.assign(rec, { header, claims })
    if (!header || !claims) return refuse(rec, 400, 'invalid_grant', 'Invalid JWT: the assertion is not a JWS compact serialization')
    if (header.alg !== 'RS256') return refuse(rec, 400, 'invalid_grant', `Invalid JWT: unsupported algorithm ${String(header.alg)}`)
    const account = accounts.get(String(claims.iss))
    if (!account) return refuse(rec, 400, 'invalid_grant', 'Invalid grant: account not found')
    // Google looks the public key up by kid: a key id it does not know (a deleted key) fails like a bad signature
    const keyKnown = header.kid === undefined || header.kid === account.privateKeyId
    const signature = Buffer.from(parts[2]!, 'base64url')
    const signed = new TextEncoder().encode(`${parts[0]}.${parts[1]}`)
    const valid = keyKnown && (await crypto.subtle.verify('RSASSA-PKCS1-v1_5', account.publicKey, signature, signed))
    if (!valid) return refuse(rec, 400, 'invalid_grant', 'Invalid JWT Signature.')
    if (claims.aud !== tokenUri) return refuse(rec, 400, 'invalid_grant', `Invalid JWT: Failed audience check. The right audience is ${tokenUri}`)
    const scopes = String(claims.scope ?? '').split(' ')
    if (!scopes.includes(CLOUD_PLATFORM)) return refuse(rec, 400, 'invalid_scope', 'Invalid OAuth scope or ID token audience provided.')
    const t = Math.floor(now() / 1000)
    const { iat, exp } = claims as { iat: unknown; exp: unknown }
    if (typeof iat !== 'number' || typeof exp !== 'number' || exp - iat > 3600 || exp <= iat || iat > t + SKEW || exp < t - SKEW)
      return refuse(rec, 400, 'invalid_grant', SHORT_LIVED)
    if (failures && failures.count > 0) {
      failures.count--
      const { status, error, description, raw } = failures.reply
      Object.assign(rec, { status, error })
      if (raw !== undefined) return new Response(typeof raw === 'function' ? raw(assertion) : raw, { status, headers: { 'content-type': 'text/html; charset=UTF-8' } })
      return Response.json({ error, ...(description ? { error_description: description } : {}) }, { status })
    }
    const token = `ya29.c.${randomString(120)}`
    issued.set(token, { clientEmail: account.clientEmail, projectId: account.projectId, expiresAt: now() + expiresIn * 1000 })
    rec.status = 200
    return Response.json({ access_token: token, expires_in: expiresIn, token_type: 'Bearer' }, { headers: { 'cache-control': 'no-cache, no-store, max-age=0, must-revalidate' } })
  }

  const server = Bun.serve({ hostname: '127.0.0.1', port: 0, idleTimeout: 0, fetch: handle })
  const url = `http://127.0.0.1:${server.port}`
  tokenUri = options.tokenUri ?? `${url}/token`
  return {
    url,
    tokenUri,
    exchanges,
    async createAccount(o = {}) {
      const account = await createTestServiceAccount({ tokenUri, ...o })
      accounts.set(account.clientEmail, account)
      return account
    },
    register: (account) => void accounts.set(account.clientEmail, account),
    tokenInfo(token) {
      const info = issued.get(token)
      return info && now() < info.expiresAt ? info : undefined
    },
    failNext(count, reply = { status: 503, error: 'backendError', description: 'The service is currently unavailable.' }) {
      failures = { count, reply }
    },
    setExpiresIn: (seconds) => void (expiresIn = seconds),
    setDelay: (ms) => void (delayMs = ms),
    revoke: (token) => void issued.delete(token),
    stop: () => server.stop(true),
  }
}
