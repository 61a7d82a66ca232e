import { expect, test } from 'bun:test'
import { checkDisplayName, checkPasswordChange } from '../../src/ui/lib/profile'

test('a password change needs the current password, 8 to 64 new characters, different, typed twice', () => {
  expect(checkPasswordChange({ current: '', next: '', confirm: '' })).toEqual({ current: 'required', next: 'required' })
  expect(checkPasswordChange({ current: 'old-password', next: 'short', confirm: 'short' })).toEqual({ next: 'passwordLength' })
  expect(checkPasswordChange({ current: 'old-password', next: 'x'.repeat(65), confirm: 'x'.repeat(65) })).toEqual({ next: 'passwordLength' })
  expect(checkPasswordChange({ current: 'old-password', next: 'old-password', confirm: 'old-password' })).toEqual({ next: 'passwordSame' })
  expect(checkPasswordChange({ current: 'old-password', next: 'new-password', confirm: 'new-passw0rd' })).toEqual({ confirm: 'passwordMismatch' })
  expect(checkPasswordChange({ current: 'old-password', next: 'new-password', confirm: 'new-password' })).toEqual({})
})

test('a display name has at most 20 characters; empty is allowed', () => {
  expect(checkDisplayName('')).toBeUndefined()
  expect(checkDisplayName('x'.repeat(20))).toBeUndefined()
  expect(checkDisplayName('x'.repeat(21))).toBe('displayNameLength')
})
