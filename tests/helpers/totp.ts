import { Secret, TOTP } from 'otpauth'

/** The 6-digit code an authenticator app shows for this base32 secret at `ms` (default: now). */
export function totpCode(secret: string, ms = Date.now()): string {
  return new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({ timestamp: ms })
}
