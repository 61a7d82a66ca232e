import { Secret, TOTP } from 'otpauth'

const PERIOD = 30
const DIGITS = 6

function totpOf(secret: string, label = '', issuer = ''): TOTP {
  return new TOTP({ issuer, label, algorithm: 'SHA1', digits: DIGITS, period: PERIOD, secret: Secret.fromBase32(secret) })
}

/** A new random secret (160 bits, RFC 4226's recommendation), base32 as authenticator apps take it. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32
}

/** The otpauth:// URI the QR code carries (what new-api returns as `qr_code_data`). */
export function otpauthUri(secret: string, account: string, issuer: string): string {
  return totpOf(secret, account, issuer).toString()
}

/**
 * The 30-second step a 6-digit code belongs to, within one step either side of `nowMs` (clock drift), or null.
 * The caller refuses a step at or before the last one it took, so a code works once.
 */
export function totpStep(secret: string, code: string, nowMs: number): number | null {
  if (!/^\d{6}$/.test(code)) return null
  const delta = totpOf(secret).validate({ token: code, timestamp: nowMs, window: 1 })
  return delta === null ? null : Math.floor(nowMs / 1000 / PERIOD) + delta
}
