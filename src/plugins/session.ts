import { jwt } from '@elysiajs/jwt'
import { Elysia } from 'elysia'
import type { UserRow } from '../db/repos'
import type { AppDeps } from '../deps'
import { ForbiddenError, UnauthorizedError } from '../errors'
import { clientIpOf } from './request-context'

export const SESSION_COOKIE = 'tollgate_session'
export const SESSION_DAYS = 30

export const Role = { user: 1, admin: 10, root: 100 } as const
export const UserStatus = { enabled: 1, disabled: 2 } as const

/** sha-256 hex; used for access tokens (high-entropy, so a fast hash is the right one). */
export function sha256(text: string): string {
  return new Bun.CryptoHasher('sha256').update(text).digest('hex')
}

const plugins = new WeakMap<AppDeps, ReturnType<typeof build>>()
const sessionUsers = new WeakMap<Request, UserRow>()

/**
 * The management session: a signed JWT cookie, or `Authorization: Bearer <access token>`.
 * Routes opt in with `{ role: Role.user | Role.admin | Role.root }` and receive `user` and `clientIp`.
 */
export function sessionPlugin(deps: AppDeps) {
  let plugin = plugins.get(deps)
  if (!plugin) plugins.set(deps, (plugin = build(deps)))
  return plugin
}

function build(deps: AppDeps) {
  return new Elysia({ name: 'session', seed: deps.startedAt })
    .use(jwt({ name: 'sessionJwt', secret: deps.secrets.session, exp: `${SESSION_DAYS}d` }))
    .macro({
      role: (minRole: number) => ({
        // transform runs before body validation: an anonymous caller learns nothing about a route's fields
        async transform({ sessionJwt, cookie, request }) {
          const user = await findSessionUser(deps, request.headers, await readCookie(sessionJwt, cookie[SESSION_COOKIE]?.value))
          if (user.role < minRole) throw new ForbiddenError('this needs a higher role')
          sessionUsers.set(request, user)
        },
        // the caller's IP for the management logs, on these routes only (relay routes never pay for it here)
        resolve: ({ request, server }) => ({ user: sessionUsers.get(request)!, clientIp: clientIpOf(request, server, deps.config.trustProxy) }),
      }),
    })
}

type Claims = { uid: number; sv: number } | undefined

async function readCookie(verifier: { verify(token?: string): Promise<unknown> }, value: unknown): Promise<Claims> {
  if (typeof value !== 'string' || !value) return undefined
  const payload = (await verifier.verify(value)) as { uid?: unknown; sv?: unknown } | false
  if (!payload || typeof payload.uid !== 'number' || typeof payload.sv !== 'number') return undefined
  return { uid: payload.uid, sv: payload.sv }
}

async function findSessionUser(deps: AppDeps, headers: Headers, claims: Claims): Promise<UserRow> {
  let user: UserRow | undefined
  if (claims) {
    const row = deps.repos.users.findById(claims.uid)
    if (row && row.sessionVersion === claims.sv) user = row
  }
  if (!user) {
    const bearer = /^Bearer\s+(.+)$/i.exec(headers.get('authorization') ?? '')?.[1]?.trim()
    if (bearer) user = deps.repos.users.findByAccessToken(sha256(bearer))
  }
  if (!user) throw new UnauthorizedError('not logged in: log in or send a valid access token')
  if (user.status !== UserStatus.enabled) throw new UnauthorizedError('this user is disabled')
  const claimed = headers.get('new-api-user')
  if (claimed !== null && claimed !== '' && Number(claimed) !== user.id) {
    throw new UnauthorizedError('the New-Api-User header does not match the logged-in user')
  }
  return user
}

export interface CookieTarget {
  value: unknown
  set(options: Record<string, unknown>): unknown
  remove(): unknown
}

/** Sign a session for the user and set it as an httpOnly, SameSite=Strict cookie. */
export async function startSession(
  signer: { sign(payload: Record<string, string | number>): Promise<string> },
  cookie: CookieTarget,
  user: UserRow,
  secure: boolean,
): Promise<void> {
  const value = await signer.sign({ uid: user.id, sv: user.sessionVersion })
  cookie.set({ value, httpOnly: true, sameSite: 'strict', secure, path: '/', maxAge: SESSION_DAYS * 86400 })
}

export function isSecureRequest(deps: AppDeps, request: Request): boolean {
  if (deps.config.cookieSecure !== undefined) return deps.config.cookieSecure
  if (new URL(request.url).protocol === 'https:') return true
  return deps.config.trustProxy && request.headers.get('x-forwarded-proto') === 'https'
}
