import { expect, test } from 'bun:test'
import { toLocalInput } from '../../src/ui/lib/format'
import { checkRedemptionFields, codesCsv, redemptionState, shortHint } from '../../src/ui/lib/redemption'

const NOW = 1_800_000_000

test('a code is unused, used, disabled or expired', () => {
  expect(redemptionState({ status: 1, expired_time: 0 }, NOW)).toBe('unused')
  expect(redemptionState({ status: 1, expired_time: NOW + 60 }, NOW)).toBe('unused')
  expect(redemptionState({ status: 1, expired_time: NOW }, NOW)).toBe('expired')
  expect(redemptionState({ status: 2, expired_time: NOW - 60 }, NOW)).toBe('disabled')
  expect(redemptionState({ status: 3, expired_time: NOW - 60 }, NOW)).toBe('used')
})

test('the masked code is shortened for the table', () => {
  expect(shortHint('abcd************************wxyz')).toBe('abcd…wxyz')
  expect(shortHint('plain')).toBe('plain')
})

test('the create form checks name, count 1–100, a value of at least one unit and a future expiry', () => {
  const ok = { name: ' Launch ', count: '3', dollars: '10', expires: '' }
  expect(checkRedemptionFields(ok, 500_000, NOW)).toEqual({ body: { name: 'Launch', count: 3, quota: 5_000_000 } })
  expect(checkRedemptionFields({ name: '', count: '0', dollars: '0', expires: toLocalInput(NOW - 3600) }, 500_000, NOW)).toEqual({
    errors: { name: 'required', count: 'count', dollars: 'amount', expires: 'expiry' },
  })
  expect(checkRedemptionFields({ ...ok, name: 'x'.repeat(101), count: '101', dollars: 'abc' }, 500_000, NOW)).toEqual({
    errors: { name: 'nameLength', count: 'count', dollars: 'amount' },
  })
  const later = toLocalInput(NOW + 86_400)
  const result = checkRedemptionFields({ ...ok, expires: later }, 500_000, NOW)
  expect(result).toEqual({ body: { name: 'Launch', count: 3, quota: 5_000_000, expired_time: NOW + 86_400 - ((NOW + 86_400) % 60) } })
})

test('the export lists every code with its name, value and expiry, spreadsheet-safe', () => {
  const csv = codesCsv(['AAAA1111', 'BBBB2222'], { name: '=Promo, "spring"', count: 2, quota: 1_250_000, expired_time: 1_800_000_000 }, 500_000)
  expect(csv).toBe(
    'name,code,quota,value_usd,expires_at\r\n' +
      '"\'=Promo, ""spring""",AAAA1111,1250000,2.5,2027-01-15T08:00:00.000Z\r\n' +
      '"\'=Promo, ""spring""",BBBB2222,1250000,2.5,2027-01-15T08:00:00.000Z\r\n',
  )
  expect(codesCsv(['C'], { name: 'n', count: 1, quota: 1 }, 500_000)).toBe('name,code,quota,value_usd,expires_at\r\nn,C,1,0.000002,\r\n')
})
