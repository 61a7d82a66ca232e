import { createHmac, timingSafeEqual } from 'node:crypto'

/** The cookie that ties a sign-in to the browser that started it (path /api/oauth, 10 minutes). */
export const STATE_COOKIE = 'tollgate_oauth'
export const STATE_TTL_SECONDS = 600

/** What the callback needs from the start of the flow; the PKCE verifier and the nonce never reach the browser's script. */
export interface FlowState {
  state: string
  provider: string
  /** the PKCE code verifier */
  verifier: string
  /** OIDC's nonce ('' for plain OAuth) */
  nonce: string
  /** the redirect URI sent to the provider, sent again verbatim with the code */
  redirectUri: string
  /** bind to this user (0: sign in or sign up) */
  bindUserId: number
  /** the invite code a sign-up is credited to */
  aff: string
  /** unix seconds */
  expiresAt: number
}

const keyOf = (secret: string) => createHmac('sha256', secret).update('tollgate oauth state v1').digest()
const mac = (secret: string, body: string) => createHmac('sha256', keyOf(secret)).update(body).digest('base64url')

/** `<payload>.<hmac>`: signed with a key derived from the session secret, so nobody else can mint or edit one. */
export function sealFlowState(secret: string, flow: FlowState): string {
  const body = Buffer.from(JSON.stringify(flow)).toString('base64url')
  return `${body}.${mac(secret, body)}`
}

/** The flow the cookie carries, if it is ours and unexpired; undefined otherwise. */
export function openFlowState(secret: string, value: unknown, now = Date.now() / 1000): FlowState | undefined {
  if (typeof value !== 'string' || value.length > 4096) return undefined
  const [body, tag, extra] = value.split('.')
  if (!body || !tag || extra !== undefined) return undefined
  const expected = Buffer.from(mac(secret, body))
  const given = Buffer.from(tag)
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined
  try {
    const flow = JSON.parse(Buffer.from(body, 'base64url').toString()) as FlowState
    return typeof flow.expiresAt === 'number' && flow.expiresAt > now ? flow : undefined
  } catch {
    return undefined
  }
}

/** Two strings compared in constant time. */
export function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a)
  const y = Buffer.from(b)
  return x.length === y.length && timingSafeEqual(x, y)
}
