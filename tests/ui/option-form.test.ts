import { expect, test } from 'bun:test'
import { checkSection, parseFieldValue, sameValue, toFieldValue, type OptionEntry } from '../../src/ui/lib/option-form'

const stored = new Map<string, OptionEntry>(
  [
    { key: 'SystemName', type: 'string', value: 'Tollgate' },
    { key: 'RegisterEnabled', type: 'boolean', value: false },
    { key: 'QuotaForNewUser', type: 'integer', value: 0 },
    { key: 'QuotaPerUnit', type: 'number', value: 500000 },
    { key: 'RelayMaxAttempts', type: 'integer', value: 3 },
    { key: 'GroupRateLimits', type: 'json', value: { vip: { token_rpm: 600, user_rpm: 60 } } },
  ].map((entry) => [entry.key, entry]),
)
const rules = [{ key: 'SystemName' }, { key: 'RegisterEnabled' }, { key: 'QuotaForNewUser', min: 0 }, { key: 'QuotaPerUnit', min: 1 }, { key: 'RelayMaxAttempts', min: 1 }, { key: 'GroupRateLimits' }]

test('stored values become field values: booleans checked or not, JSON pretty-printed, numbers as text', () => {
  expect(toFieldValue('boolean', true)).toBe(true)
  expect(toFieldValue('boolean', 'false')).toBe(false)
  expect(toFieldValue('integer', 42)).toBe('42')
  expect(toFieldValue('json', { a: 1 })).toBe('{\n  "a": 1\n}')
  expect(toFieldValue('json', '{"a":1}')).toBe('{\n  "a": 1\n}')
  expect(toFieldValue('string', 'x')).toBe('x')
})

test('typed values are checked before sending', () => {
  expect(parseFieldValue('integer', ' 12 ')).toEqual({ ok: true, value: 12 })
  expect(parseFieldValue('integer', '1.5')).toEqual({ ok: false, problem: 'integer' })
  expect(parseFieldValue('integer', '')).toEqual({ ok: false, problem: 'integer' })
  expect(parseFieldValue('integer', '1e3')).toEqual({ ok: false, problem: 'integer' })
  expect(parseFieldValue('integer', '99999999999999999999')).toEqual({ ok: false, problem: 'integer' })
  expect(parseFieldValue('integer', '-1', 0)).toEqual({ ok: false, problem: 'min' })
  expect(parseFieldValue('integer', '0', 1)).toEqual({ ok: false, problem: 'min' })
  expect(parseFieldValue('number', '0.5')).toEqual({ ok: true, value: 0.5 })
  expect(parseFieldValue('number', 'abc')).toEqual({ ok: false, problem: 'number' })
  expect(parseFieldValue('json', '{"a": 1}')).toEqual({ ok: true, value: { a: 1 } })
  expect(parseFieldValue('json', '[1]')).toEqual({ ok: false, problem: 'json' })
  expect(parseFieldValue('json', '{a: 1}')).toEqual({ ok: false, problem: 'json' })
  expect(parseFieldValue('json', 'null')).toEqual({ ok: false, problem: 'json' })
  expect(parseFieldValue('boolean', true)).toEqual({ ok: true, value: true })
  expect(parseFieldValue('string', '  My gateway ')).toEqual({ ok: true, value: 'My gateway' })
})

test('JSON compares by content, not by layout or key order', () => {
  expect(sameValue({ a: 1, b: { c: 2 } }, { b: { c: 2 }, a: 1 })).toBe(true)
  expect(sameValue({ a: 1 }, { a: 2 })).toBe(false)
  expect(sameValue(3, 3)).toBe(true)
  expect(sameValue('3', 3)).toBe(false)
})

test('an untouched section sends nothing', () => {
  expect(checkSection(rules, stored, {})).toEqual({ changes: [], problems: {} })
  // the same values retyped, JSON reformatted, are no change either
  const same = { SystemName: 'Tollgate ', QuotaForNewUser: '0', QuotaPerUnit: '500000.0', GroupRateLimits: '{"vip":{"user_rpm":60,"token_rpm":600}}', RegisterEnabled: false }
  expect(checkSection(rules, stored, same)).toEqual({ changes: [], problems: {} })
})

test('only the changed keys are sent, typed', () => {
  const fields = { SystemName: 'My gateway', RegisterEnabled: true, QuotaForNewUser: '250000', GroupRateLimits: '{ "vip": { "token_rpm": 100 } }' }
  expect(checkSection(rules, stored, fields)).toEqual({
    changes: [
      { key: 'SystemName', value: 'My gateway' },
      { key: 'RegisterEnabled', value: true },
      { key: 'QuotaForNewUser', value: 250000 },
      { key: 'GroupRateLimits', value: '{"vip":{"token_rpm":100}}' },
    ],
    problems: {},
  })
})

test('invalid fields are reported by key, changed or not', () => {
  const result = checkSection(rules, stored, { QuotaPerUnit: '0', RelayMaxAttempts: 'three', GroupRateLimits: '{', SystemName: 'x' })
  expect(result.problems).toEqual({ QuotaPerUnit: 'min', RelayMaxAttempts: 'integer', GroupRateLimits: 'json' })
  expect(result.changes).toEqual([{ key: 'SystemName', value: 'x' }])
})

test('keys the server does not list are skipped', () => {
  expect(checkSection([{ key: 'Unknown' }], stored, { Unknown: 'x' })).toEqual({ changes: [], problems: {} })
})

test('the public address is empty or an absolute http(s) URL without a trailing slash', async () => {
  const { isServerAddress } = await import('../../src/ui/lib/option-form')
  for (const good of ['', 'https://api.example.com', 'http://10.0.0.2:3000', 'https://example.com/gateway']) expect({ good, ok: isServerAddress(good) }).toEqual({ good, ok: true })
  for (const bad of ['api.example.com', 'https://api.example.com/', 'ftp://x', 'https://u:p@x.com', 'https://x.com?a=1', 'https://x .com']) expect({ bad, ok: isServerAddress(bad) }).toEqual({ bad, ok: false })
  const address = new Map<string, OptionEntry>([['ServerAddress', { key: 'ServerAddress', type: 'string', value: '' }]])
  expect(checkSection([{ key: 'ServerAddress', url: true }], address, { ServerAddress: 'https://x.com/' }).problems).toEqual({ ServerAddress: 'url' })
  expect(checkSection([{ key: 'ServerAddress', url: true }], address, { ServerAddress: ' https://x.com ' }).changes).toEqual([{ key: 'ServerAddress', value: 'https://x.com' }])
})
