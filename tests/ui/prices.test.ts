import { expect, test } from 'bun:test'
import { priceInUsd } from '../../src/metering/prices'
import { applyModelPrice, dollarsToRatio, formatPriceTable, multipleOf, parsePriceTable, ratioToDollars } from '../../src/ui/lib/prices'

const empty = { ModelRatio: {}, CompletionRatio: {}, CacheRatio: {}, CreateCacheRatio: {}, ModelPrice: {} }

test('ratio 1 = US$2 per 1M input tokens at the default QuotaPerUnit, and back', () => {
  expect(ratioToDollars(1)).toBe(2)
  expect(ratioToDollars(1.25)).toBe(2.5)
  expect(dollarsToRatio(2)).toBe(1)
  expect(dollarsToRatio(0.15)).toBe(0.075)
  expect(dollarsToRatio(3)).toBe(1.5)
  // a different QuotaPerUnit moves the scale
  expect(ratioToDollars(1, 1_000_000)).toBe(1)
  expect(dollarsToRatio(1, 1_000_000)).toBe(1)
  for (const dollars of [0, 0.1, 0.3, 1.1, 2.5, 15, 75, 0.0375]) expect(ratioToDollars(dollarsToRatio(dollars))).toBe(dollars)
})

test('the conversion agrees with the server’s own display of a ratio price', () => {
  for (const ratio of [0.075, 1.25, 7.5, 0.0001]) {
    const server = priceInUsd({ mode: 'ratio', model: 'm', ratio, completion: 4, cacheRead: 0.5, cacheWrite: 1.25, group: 1 }, 500_000)
    expect(ratioToDollars(ratio)).toBe(server.input!)
  }
})

test('multiples of the input price', () => {
  expect(multipleOf(10, 2.5)).toBe(4)
  expect(multipleOf(1.25, 2.5)).toBe(0.5)
  expect(multipleOf(1, 0)).toBeUndefined()
})

test('price tables: JSON objects of non-negative numbers, refused otherwise before sending', () => {
  expect(parsePriceTable('{"gpt-4o": 1.25, "x": 0}')).toEqual({ table: { 'gpt-4o': 1.25, x: 0 } })
  expect(parsePriceTable('')).toEqual({ table: {} })
  expect(parsePriceTable('{gpt: 1}')).toEqual({ error: { code: 'json' } })
  expect(parsePriceTable('[1, 2]')).toEqual({ error: { code: 'object' } })
  expect(parsePriceTable('3')).toEqual({ error: { code: 'object' } })
  expect(parsePriceTable('{"a": -1}')).toEqual({ error: { code: 'number', name: 'a' } })
  expect(parsePriceTable('{"a": "1"}')).toEqual({ error: { code: 'number', name: 'a' } })
  expect(parsePriceTable('{" ": 1}')).toEqual({ error: { code: 'name' } })
  expect(formatPriceTable({ b: 1, a: 2 })).toBe('{\n  "a": 2,\n  "b": 1\n}')
  expect(formatPriceTable({})).toBe('{}')
})

test('set price per token: ratio from US$ per 1M input, completion and cache ratios as multiples, fixed price dropped', () => {
  const result = applyModelPrice({ ...empty, ModelPrice: { m: 0.1 }, CacheRatio: { m: 0.1, other: 0.5 } }, 'm', { mode: 'token', input: 3, output: 15, cacheWrite: 3.75 })
  if ('error' in result) throw new Error(result.error)
  expect(result.tables).toEqual({ ModelRatio: { m: 1.5 }, CompletionRatio: { m: 5 }, CacheRatio: { other: 0.5 }, CreateCacheRatio: { m: 1.25 }, ModelPrice: {} })
  expect(result.changed.sort()).toEqual(['CacheRatio', 'CompletionRatio', 'CreateCacheRatio', 'ModelPrice', 'ModelRatio'])
})

test('set price per call keeps the token ratios; unchanged tables are not listed', () => {
  const result = applyModelPrice({ ...empty, ModelRatio: { m: 1 } }, 'm', { mode: 'call', perCall: 0.04 })
  if ('error' in result) throw new Error(result.error)
  expect(result.tables.ModelPrice).toEqual({ m: 0.04 })
  expect(result.tables.ModelRatio).toEqual({ m: 1 })
  expect(result.changed).toEqual(['ModelPrice'])
  const again = applyModelPrice(result.tables, 'm', { mode: 'call', perCall: 0.04 })
  expect('changed' in again && again.changed).toEqual([])
})

test('free input with a paid output cannot be written as ratios', () => {
  expect(applyModelPrice(empty, 'm', { mode: 'token', input: 0, output: 1 })).toEqual({ error: 'outputWithoutInput' })
  const free = applyModelPrice(empty, 'm', { mode: 'token', input: 0, output: 0 })
  expect('tables' in free && free.tables.ModelRatio).toEqual({ m: 0 })
})
