import { jwt } from '@elysiajs/jwt'
import { Elysia } from 'elysia'
import type { UserRow } from '../db/repos'
import type { AppDeps } from '../deps'
import { sha256 } from '../crypto/sha256'
import { UserStatus } from '../db/repos/user-roles'
import { ForbiddenError, UnauthorizedError } from '../errors'
import { clientIpOf, isHttpsRequest, type ArrivedContext, type IpSource } from './request-context'

export const SESSION_COOKIE = 'tollgate_session'
const SESSION_DAYS = 30

const plugins = new WeakMap<AppDeps, ReturnType<typeof build>>()

/** The macro's hooks' view of the request's context: the user `transform` found rides on it to `resolve`. */
interface SessionContext extends ArrivedContext {
  request: Request
  server: IpSource
  sessionUser?: UserRow
}

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
        // for the OpenAPI document (modules/ops/openapi.ts): who may call the route, and how they authenticate
        detail: { 'x-tollgate-role': minRole, security: [{ session: [] }, { accessToken: [] }] },
        // transform runs before body validation: an anonymous caller learns nothing about a route's fields
        // the context's fields read by name: Elysia reads a hook's source to decide what to prepare for the route
        async transform(context: SessionContext & { sessionJwt: Parameters<typeof readSessionClaims>[0] }) {
          const headers = context.request.headers
          const user = await findSessionUser(deps, headers, await readSessionClaims(context.sessionJwt, sessionCookieOf(headers)))
          if (user.role < minRole) throw new ForbiddenError('this needs a higher role')
          context.sessionUser = user
        },
        // the caller's IP for the management logs, on these routes only (relay routes never pay for it here)
        resolve: (context: SessionContext) => ({
          user: context.sessionUser!,
          clientIp: clientIpOf(context.request, context.server, deps.config.trustProxy),
          arrival: context.arrival,
        }),
      }),
    })
}

/**
 * What a session cookie carries. `sessionId` is the JWT's `jti`, which logout revokes; cookies issued before
 * sessions had ids lack it and stay valid until they expire (or their user logs out, see `logout`).
 */
export interface SessionClaims {
  userId: number
  sessionVersion: number
  sessionId?: string
  /** the JWT's `exp`, unix seconds */
  expiresAt: number
  /** when this session last proved its user (password, code or passkey), unix seconds: secure verification's clock */
  verifiedAt?: number
}

/**
 * The session cookie's value, read from the Cookie header by hand (the macro and the derives that read the session
 * outside it): a `derive` that names Elysia's `cookie` makes Elysia parse the cookies of every request to every route
 * of the app, the relay's included. Routes that set the cookie (login, logout) still take Elysia's `cookie`.
 */
export function sessionCookieOf(headers: Headers): string | undefined {
  const header = headers.get('cookie')
  if (!header) return undefined
  for (const part of header.split(';')) {
    const eq = part.indexOf('=')
    if (eq < 0 || part.slice(0, eq).trim() !== SESSION_COOKIE) continue
    const raw = part.slice(eq + 1).trim().replace(/^"(.*)"$/, '$1')
    try {
      return decodeURIComponent(raw)
    } catch {
      return raw
    }
  }
  return undefined
}

/** The claims of a cookie signed by us and not expired; anything else is no session at all. */
export async function readSessionClaims(verifier: { verify(token?: string): Promise<unknown> }, value: unknown): Promise<SessionClaims | undefined> {
  if (typeof value !== 'string' || !value) return undefined
  const payload = (await verifier.verify(value)) as { uid?: unknown; sv?: unknown; jti?: unknown; exp?: unknown; va?: unknown } | false
  if (!payload || typeof payload.uid !== 'number' || typeof payload.sv !== 'number' || typeof payload.exp !== 'number') return undefined
  const sessionId = typeof payload.jti === 'string' ? payload.jti : undefined
  const verifiedAt = typeof payload.va === 'number' ? payload.va : undefined
  return { userId: payload.uid, sessionVersion: payload.sv, sessionId, expiresAt: payload.exp, verifiedAt }
}

/** The session's user while the session is live: not ended by logout, not older than the user's session version. */
export async function liveSessionUser(deps: AppDeps, claims: SessionClaims): Promise<UserRow | undefined> {
  // a Map lookup: the revocation list is held in memory
  if (claims.sessionId !== undefined && deps.revokedSessions.isRevoked(claims.sessionId)) return undefined
  const user = deps.repos.users.cachedById(claims.userId) ?? (await deps.repos.users.findById(claims.userId))
  return user?.sessionVersion === claims.sessionVersion ? user : undefined
}

/**
 * The live session's user (cookie, else access token), enabled and matching `New-Api-User`, or a 401.
 * `disabled` builds the error for a disabled user: 401 by default, 403 on the playground relay.
 */
export async function findSessionUser(
  deps: AppDeps,
  headers: Headers,
  claims: SessionClaims | undefined,
  disabled: () => Error = () => new UnauthorizedError('this user is disabled'),
): Promise<UserRow> {
  let user = claims && (await liveSessionUser(deps, claims))
  if (!user) {
    const bearer = /^Bearer\s+(.+)$/i.exec(headers.get('authorization') ?? '')?.[1]?.trim()
    if (bearer) user = await deps.repos.users.findByAccessToken(sha256(bearer))
  }
  if (!user) throw new UnauthorizedError('not logged in: log in or send a valid access token')
  if (user.status !== UserStatus.enabled) throw disabled()
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

/**
 * Sign a new session (its own random id, so logout can end it alone) and set it as an httpOnly, SameSite=Strict
 * cookie. Whoever starts a session has just checked a credential, so it counts as verified now (`va`) unless
 * `resume` carries an existing session's id and verification time (secure verification re-signs its cookie).
 */
export async function startSession(
  signer: { sign(payload: Record<string, string | number>): Promise<string> },
  cookie: CookieTarget,
  user: UserRow,
  secure: boolean,
  resume: { sessionId?: string; verifiedAt?: number } = {},
): Promise<void> {
  const verifiedAt = resume.verifiedAt ?? Math.floor(Date.now() / 1000)
  const value = await signer.sign({ uid: user.id, sv: user.sessionVersion, jti: resume.sessionId ?? crypto.randomUUID(), va: verifiedAt })
  cookie.set({ value, httpOnly: true, sameSite: 'strict', secure, path: '/', maxAge: SESSION_DAYS * 86400 })
}

/** Tell the browser to drop its session cookie. */
export function clearSessionCookie(cookie: CookieTarget, secure: boolean): void {
  cookie.set({ value: '', maxAge: 0, expires: new Date(0), path: '/', httpOnly: true, sameSite: 'strict', secure })
}

/** Whether the session cookie is `Secure`: COOKIE_SECURE, else whether the client came over HTTPS (`isHttpsRequest`). */
export function isSecureRequest(deps: AppDeps, request: Request, server: Parameters<typeof isHttpsRequest>[1]): boolean {
  return deps.config.cookieSecure ?? isHttpsRequest(request, server, deps.config.trustProxy)
}
