import type { UserRow } from '../../db/repos'
import type { AppDeps } from '../../deps'
import { liveSessionUser, type SessionClaims } from '../../plugins/session'

/**
 * End the session these claims came from, and only it: the user's other devices stay logged in.
 * Idempotent: no session, an expired or forged one, or one already ended changes nothing.
 */
export async function logout(deps: AppDeps, claims: SessionClaims | undefined): Promise<void> {
  const user = claims && (await liveSessionUser(deps, claims))
  if (!claims || !user) return
  if (claims.sessionId !== undefined) return deps.revokedSessions.revoke(claims.sessionId, claims.expiresAt)
  // A cookie issued before sessions had ids (no `jti`) cannot be revoked on its own: bumping the user's
  // session version ends it, and with it the user's other sessions (the version is per user). Such cookies
  // disappear within SESSION_DAYS of the upgrade.
  await deps.repos.users.revokeAllSessions(user.id)
}

/**
 * "Log out everywhere": every session of the user ends (the session version moves on) and their management access
 * token stops working; the next one comes from GET /api/user/token. The same as a password change, without one.
 */
export async function logoutEverywhere(deps: AppDeps, user: UserRow): Promise<void> {
  await deps.repos.users.revokeCredentials(user.id)
}
