import { backupCodeMatches, hashBackupCode, newBackupCodes } from './backup-codes'
import { factorError, notEnabled } from './errors'
import type { FactorDeps } from './factor-deps'
import { newTotpSecret, otpauthUri, totpStep } from './totp'

export type FactorUsed = 'totp' | 'backup_code'

/** new-api's `GET /api/user/2fa/status` data. */
export async function twoFactorStatus(deps: FactorDeps, userId: number) {
  const record = await deps.factors.totp(userId)
  if (!record?.enabled) return { enabled: false, locked: false }
  return { enabled: true, locked: false, backup_codes_remaining: (await deps.factors.unusedBackupCodes(userId)).length }
}

export async function twoFactorEnabled(deps: FactorDeps, userId: number): Promise<boolean> {
  return (await deps.factors.totp(userId))?.enabled === true
}

/** Start (or restart) enrolment: a new secret and backup codes, pending until `enableTwoFactor` sees a good code. */
export async function setupTwoFactor(deps: FactorDeps, user: { id: number; username: string }, issuer: string) {
  if (await twoFactorEnabled(deps, user.id)) throw factorError(409, 'twofa_already_enabled', 'two-factor authentication is already enabled: disable it first')
  const secret = newTotpSecret()
  const codes = newBackupCodes()
  await deps.factors.startTotp(user.id, await deps.box.encrypt(secret), hashCodes(deps, user.id, codes))
  return { secret, qr_code_data: otpauthUri(secret, user.username, issuer), backup_codes: codes }
}

/** One good code from the authenticator turns the pending enrolment on (and that code is spent); false: a wrong code. */
export async function enableTwoFactor(deps: FactorDeps, userId: number, code: string, nowMs: number): Promise<boolean> {
  const record = await deps.factors.totp(userId)
  if (!record) throw factorError(400, 'twofa_setup_missing', 'start the setup first')
  if (record.enabled) throw factorError(409, 'twofa_already_enabled', 'two-factor authentication is already enabled')
  const step = totpStep(await deps.box.decrypt(record.secret), code.trim(), nowMs)
  return step !== null && (await deps.factors.enableTotp(userId, step))
}

/**
 * Check a TOTP code (taken once: its step must be later than the last one taken) or a backup code (used once),
 * consuming it. `allowBackup` false: a TOTP code only (new-api's rule for regenerating the codes).
 */
export async function consumeSecondFactor(deps: FactorDeps, userId: number, code: string, nowMs: number, allowBackup = true): Promise<FactorUsed | null> {
  const record = await deps.factors.totp(userId)
  if (!record?.enabled) throw notEnabled()
  const trimmed = code.trim()
  if (/^\d{6}$/.test(trimmed)) {
    const step = totpStep(await deps.box.decrypt(record.secret), trimmed, nowMs)
    return step !== null && (await deps.factors.takeStep(userId, step)) ? 'totp' : null
  }
  if (!allowBackup || trimmed.length > 64) return null
  for (const stored of await deps.factors.unusedBackupCodes(userId)) {
    if (await backupCodeMatches(deps.codeKey, userId, trimmed, stored.codeHash)) {
      return (await deps.factors.useBackupCode(stored.id, Math.floor(nowMs / 1000))) ? 'backup_code' : null
    }
  }
  return null
}

export async function disableTwoFactor(deps: FactorDeps, userId: number): Promise<boolean> {
  return deps.factors.deleteTotp(userId)
}

export async function regenerateBackupCodes(deps: FactorDeps, userId: number): Promise<string[]> {
  const codes = newBackupCodes()
  await deps.factors.replaceBackupCodes(userId, hashCodes(deps, userId, codes))
  return codes
}

function hashCodes(deps: FactorDeps, userId: number, codes: string[]): string[] {
  return codes.map((code) => hashBackupCode(deps.codeKey, userId, code))
}
