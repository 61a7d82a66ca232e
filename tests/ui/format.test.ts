import { expect, test } from 'bun:test'
import { dollarsToQuota, formatDollars, formatAmount, fromLocalInput, quotaToDollars, toLocalInput } from '../../src/ui/lib/format'

test('an amount shows one way, as DisplayInCurrencyEnabled says: US$ at QuotaPerUnit, or quota units', () => {
  expect(formatAmount(500_000, 500_000, 'en', true)).toBe('$1.00')
  expect(formatAmount(0, 500_000, 'en', true)).toBe('$0.00')
  expect(formatAmount(123_456_789, 500_000, 'en', true)).toBe('$246.91')
  expect(formatAmount(1_000_000, 1_000_000, 'zh-CN', true)).toBe('US$1.00')
  expect(formatAmount(123_456_789, 500_000, 'en', false)).toBe('123,456,789')
  expect(formatAmount(1_000_000, 1_000_000, 'zh-CN', false)).toBe('1,000,000')
})

test('a request that costs well under a cent keeps enough digits to be told apart', () => {
  expect(formatDollars(0.0123, 'en')).toBe('$0.0123')
  expect(formatDollars(0.000042, 'en')).toBe('$0.000042')
  expect(formatDollars(12.5, 'en')).toBe('$12.50')
  expect(formatDollars(-2, 'en')).toBe('-$2.00')
})

test('dollars typed by a person become whole quota units and back', () => {
  expect(dollarsToQuota(1.5, 500_000)).toBe(750_000)
  expect(dollarsToQuota(0.000001, 500_000)).toBe(1)
  expect(quotaToDollars(750_000, 500_000)).toBe(1.5)
  expect(quotaToDollars(5, 0)).toBe(0)
})

test('datetime-local values round-trip through unix seconds in the local zone', () => {
  const seconds = fromLocalInput('2026-11-23T14:05')!
  expect(toLocalInput(seconds)).toBe('2026-11-23T14:05')
  expect(fromLocalInput('')).toBeUndefined()
  expect(fromLocalInput('not a date')).toBeUndefined()
})

test('the console accepts the usernames the server accepts (imported Chinese names included)', async () => {
  const { checkCredentials } = await import('../../src/ui/lib/validate')
  const { isValidUsername } = await import('../../src/modules/users/credentials')
  for (const name of ['root', '张三', 'user.name@x', 'a'.repeat(20), 'has space', 'a'.repeat(21), '']) {
    const console = checkCredentials({ username: name, password: 'long-enough-1' }).username === undefined
    expect({ name, console }).toEqual({ name, console: isValidUsername(name) })
  }
})
