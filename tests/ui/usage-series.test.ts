import { afterAll, beforeEach, describe, expect, test } from 'bun:test'
import { aggregateUsage, bucketOf, defaultGranularity, nextBucket, OTHER, stackSeries, usageWindow, type UsageRow } from '../../src/ui/lib/usage-series'

// Buckets follow the browser's zone: run these in a few (Bun reads TZ on every date call).
const savedTz = process.env.TZ
afterAll(() => {
  if (savedTz === undefined) delete process.env.TZ
  else process.env.TZ = savedTz
})
const at = (iso: string) => Math.floor(Date.parse(iso) / 1000)
const row = (created_at: number, model_name: string, count: number, quota = count * 10, token_used = count * 100): UsageRow => ({ created_at, model_name, count, quota, token_used })

describe('in Shanghai (UTC+8)', () => {
  test('hours and days start on the local clock', () => {
    process.env.TZ = 'Asia/Shanghai'
    const t = at('2026-11-23T14:35:10+08:00')
    expect(bucketOf(t, 'hour')).toBe(at('2026-11-23T14:00:00+08:00'))
    expect(bucketOf(t, 'day')).toBe(at('2026-11-23T00:00:00+08:00'))
    // 02:00 UTC is already 10:00 the same local day; 20:00 UTC the day before is 04:00 local
    expect(bucketOf(at('2026-11-22T20:00:00Z'), 'day')).toBe(at('2026-11-23T00:00:00+08:00'))
  })

  test('a window ends with the bucket holding now and has one bucket per hour or day of the range', () => {
    process.env.TZ = 'Asia/Shanghai'
    const now = at('2026-11-23T14:35:10+08:00')
    const day = usageWindow('24h', 'hour', now)
    expect(day.buckets).toHaveLength(24)
    expect(day.buckets.at(-1)).toBe(at('2026-11-23T14:00:00+08:00'))
    expect(day.start).toBe(at('2026-11-22T15:00:00+08:00'))
    expect(day.end).toBe(now)
    const week = usageWindow('7d', 'day', now)
    expect(week.buckets).toHaveLength(7)
    expect(week.start).toBe(at('2026-11-17T00:00:00+08:00'))
    expect(usageWindow('30d', 'day', now).buckets).toHaveLength(30)
    expect(usageWindow('30d', 'hour', now).buckets).toHaveLength(720)
    expect(usageWindow('24h', 'day', now).buckets).toEqual([at('2026-11-22T00:00:00+08:00'), at('2026-11-23T00:00:00+08:00')])
  })

  test('hourly rows sum into local days, per model, and rows outside the window are left out', () => {
    process.env.TZ = 'Asia/Shanghai'
    const now = at('2026-11-23T14:35:10+08:00')
    const { buckets } = usageWindow('7d', 'day', now)
    const rows = [
      row(at('2026-11-22T16:00:00Z'), 'gpt', 2), // 00:00 on the 23rd local
      row(at('2026-11-23T01:00:00Z'), 'gpt', 3), // 09:00 on the 23rd
      row(at('2026-11-22T15:00:00Z'), 'claude', 1), // 23:00 on the 22nd
      row(at('2026-11-10T00:00:00Z'), 'gpt', 50), // before the window
    ]
    const series = aggregateUsage(rows, buckets, 'day')
    expect(series.models).toEqual(['gpt', 'claude'])
    expect(series.count[0]).toEqual([0, 0, 0, 0, 0, 0, 5])
    expect(series.count[1]).toEqual([0, 0, 0, 0, 0, 1, 0])
    expect(series.quota[0]!.at(-1)).toBe(50)
    expect(series.tokens[1]!.at(-2)).toBe(100)
    expect(series.totals).toEqual({ count: 6, tokens: 600, quota: 60 })
    expect(series.modelTotals[0]).toEqual({ count: 5, tokens: 500, quota: 50 })
  })
})

describe('across a daylight-saving change (New York)', () => {
  test('the day the clocks go back lasts 25 hours and is still one bucket', () => {
    process.env.TZ = 'America/New_York'
    const sunday = at('2026-11-01T00:00:00-04:00')
    expect(nextBucket(sunday, 'day') - sunday).toBe(25 * 3600)
    expect(nextBucket(sunday, 'day')).toBe(at('2026-11-02T00:00:00-05:00'))
    const { buckets } = usageWindow('7d', 'day', at('2026-11-04T12:00:00-05:00'))
    expect(buckets).toHaveLength(7)
    expect(buckets.every((b) => new Date(b * 1000).getHours() === 0)).toBe(true)
    // the repeated 01:00 hour: both UTC hours land in the same day bucket
    const series = aggregateUsage([row(at('2026-11-01T05:00:00Z'), 'm', 1), row(at('2026-11-01T06:00:00Z'), 'm', 1)], buckets, 'day')
    expect(series.count[0]![buckets.indexOf(sunday)]).toBe(2)
  })
})

describe('in a half-hour zone (India, UTC+5:30)', () => {
  test('server hours (UTC) land in the local hour that holds them', () => {
    process.env.TZ = 'Asia/Kolkata'
    const now = at('2026-11-23T16:10:00+05:30')
    const { buckets, start } = usageWindow('24h', 'hour', now)
    expect(buckets.at(-1)).toBe(at('2026-11-23T16:00:00+05:30'))
    expect(start % 3600).toBe(1800)
    const series = aggregateUsage([row(at('2026-11-23T10:00:00Z'), 'm', 4)], buckets, 'hour') // 15:30 local
    expect(series.count[0]![buckets.indexOf(at('2026-11-23T15:00:00+05:30'))]).toBe(4)
  })
})

describe('top models', () => {
  const hour = 1000 * 3600
  const buckets = [hour]
  const rows = (names: string[]) => names.map((name, i) => row(hour, name, 100 - i))

  beforeEach(() => {
    process.env.TZ = 'UTC'
  })

  test('the busiest keep their series, the rest share "other"', () => {
    const series = aggregateUsage(rows(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']), buckets, 'hour', 5)
    expect(series.models).toEqual(['a', 'b', 'c', 'd', 'e', OTHER])
    expect(series.count[5]).toEqual([95 + 94 + 93])
    expect(series.totals.count).toBe(100 + 99 + 98 + 97 + 96 + 95 + 94 + 93)
  })

  test('a single model left over keeps its own name instead of "other"', () => {
    expect(aggregateUsage(rows(['a', 'b', 'c', 'd', 'e', 'f']), buckets, 'hour', 5).models).toEqual(['a', 'b', 'c', 'd', 'e', 'f'])
  })

  test('ties go to quota, then the name', () => {
    const tied = [row(hour, 'z', 1, 5), row(hour, 'y', 1, 5), row(hour, 'x', 1, 9)]
    expect(aggregateUsage(tied, buckets, 'hour').models).toEqual(['x', 'y', 'z'])
  })

  test('no rows, no series', () => {
    const series = aggregateUsage([], buckets, 'hour')
    expect(series.models).toEqual([])
    expect(series.totals).toEqual({ count: 0, tokens: 0, quota: 0 })
  })
})

test('stacked series are running sums; the default granularity follows the range', () => {
  expect(stackSeries([[1, 2], [3, 0], [0, 5]])).toEqual([[1, 2], [4, 2], [4, 7]])
  expect(stackSeries([])).toEqual([])
  expect(defaultGranularity('24h')).toBe('hour')
  expect(defaultGranularity('30d')).toBe('day')
})
