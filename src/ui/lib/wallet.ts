/** The wallet's checks before anything is sent: redemption codes and invitation-quota transfers. */

import { dollarsToQuota } from './format'
import { parseAmount } from './validate'

/** The server's limit on a redemption code's length (`TopUpBody`). */
export const CODE_MAX = 200

export type CodeError = 'required' | 'codeLength'

export function checkCode(text: string): CodeError | undefined {
  const code = text.trim()
  if (!code) return 'required'
  if (code.length > CODE_MAX) return 'codeLength'
  return undefined
}

export type TransferError = 'required' | 'number' | 'minimum' | 'available'

/**
 * An amount of invitation quota to move to the balance, typed in US$ like every amount in the console (made
 * quota units at `perUnit`): at least US$1 (`minimum` = QuotaPerUnit units, as the server requires) and no
 * more than what is available.
 */
export function checkTransfer(text: string, limits: { minimum: number; available: number; perUnit: number }): { quota: number } | { error: TransferError } {
  if (!text.trim()) return { error: 'required' }
  const dollars = parseAmount(text.replace(/[,_\s]/g, ''))
  if (dollars === undefined) return { error: 'number' }
  const quota = dollarsToQuota(dollars, limits.perUnit)
  if (quota < limits.minimum) return { error: 'minimum' }
  if (quota > limits.available) return { error: 'available' }
  return { quota }
}

/** The invitation link new users register with: the public address when one is set, else this page's origin. */
export function invitationLink(code: string, serverAddress: string | undefined, origin: string): string {
  const base = (serverAddress?.trim() || origin).replace(/\/+$/, '')
  return `${base}/register?aff=${encodeURIComponent(code)}`
}
