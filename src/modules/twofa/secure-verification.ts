import type { SessionClaims } from '../../plugins/session'
import { factorError } from './errors'

/** How long a password, code or passkey check keeps a session "freshly verified" for sensitive actions. */
export const SECURE_VERIFICATION_SECONDS = 300

/** When the session's last verification stops counting (unix seconds), or 0. */
function verificationExpiresAt(claims: SessionClaims | undefined): number {
  return claims?.verifiedAt === undefined ? 0 : claims.verifiedAt + SECURE_VERIFICATION_SECONDS
}

/**
 * Sensitive actions (revealing the access token, removing a passkey, changing the e-mail) need a session that
 * proved its user within the last few minutes: `POST /api/verify` renews it. An access token is no session: refused.
 */
export function requireSecureVerification(claims: SessionClaims | undefined, userId: number, nowMs: number): void {
  if (!claims || claims.userId !== userId) throw factorError(403, 'secure_verification_needs_session', 'this action needs a console session (not an access token) that verified recently')
  if (verificationExpiresAt(claims) * 1000 <= nowMs) {
    throw factorError(403, 'secure_verification_required', 'confirm it is you first: your password, a 2FA code or a passkey (POST /api/verify)')
  }
}
