/** The profile page's checks before sending (the server's own bounds: `SelfUpdate`, `Password`). */

import { PASSWORD_MAX, PASSWORD_MIN } from './validate'

const DISPLAY_NAME_MAX = 20

export type PasswordChangeError = 'required' | 'passwordLength' | 'passwordMismatch' | 'passwordSame'

export interface PasswordChange {
  current: string
  next: string
  confirm: string
}

export function checkPasswordChange(input: PasswordChange): Partial<Record<keyof PasswordChange, PasswordChangeError>> {
  const errors: Partial<Record<keyof PasswordChange, PasswordChangeError>> = {}
  if (!input.current) errors.current = 'required'
  if (!input.next) errors.next = 'required'
  else if (input.next.length < PASSWORD_MIN || input.next.length > PASSWORD_MAX) errors.next = 'passwordLength'
  else if (input.next === input.current) errors.next = 'passwordSame'
  if (!errors.next && input.confirm !== input.next) errors.confirm = 'passwordMismatch'
  return errors
}

/** Too long, or fine (empty is fine: the username shows instead). */
export function checkDisplayName(name: string): 'displayNameLength' | undefined {
  return name.trim().length > DISPLAY_NAME_MAX ? 'displayNameLength' : undefined
}
