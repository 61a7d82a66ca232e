/** Client-side checks that mirror the server's, so a form says what is wrong before it sends. */

export const PASSWORD_MIN = 8
export const PASSWORD_MAX = 64
import { USERNAME_PATTERN as USERNAME_RULE } from '../../modules/users/username-rule'

/** The server's own rule: 1–20 characters of any script, no whitespace (imported new-api names included). */
export const USERNAME_PATTERN = new RegExp(USERNAME_RULE)

export type CredentialError = 'required' | 'usernameFormat' | 'passwordLength' | 'passwordMismatch'

export function checkCredentials(input: { username: string; password: string; confirm?: string }): Partial<Record<'username' | 'password' | 'confirm', CredentialError>> {
  const errors: Partial<Record<'username' | 'password' | 'confirm', CredentialError>> = {}
  if (!input.username.trim()) errors.username = 'required'
  else if (!USERNAME_PATTERN.test(input.username)) errors.username = 'usernameFormat'
  if (!input.password) errors.password = 'required'
  else if (input.password.length < PASSWORD_MIN || input.password.length > PASSWORD_MAX) errors.password = 'passwordLength'
  if (input.confirm !== undefined && input.confirm !== input.password) errors.confirm = 'passwordMismatch'
  return errors
}

/** A whole, non-negative number typed in a field, or undefined. */
export function parseWholeNumber(text: string): number | undefined {
  if (!/^\s*\d+\s*$/.test(text)) return undefined
  const value = Number(text)
  return Number.isSafeInteger(value) ? value : undefined
}

/** A non-negative decimal typed in a field (dollars), or undefined. */
export function parseAmount(text: string): number | undefined {
  if (!/^\s*\d+(\.\d+)?\s*$/.test(text)) return undefined
  const value = Number(text)
  return Number.isFinite(value) ? value : undefined
}
