import { afterAll, beforeAll, expect, test } from 'bun:test'
import {
  DEFAULT_LOG_PAGE_SIZE,
  draftOf,
  filtersOfDraft,
  hasFilters,
  logListQuery,
  logSearchOf,
  logsHref,
  logStatQuery,
  NO_FILTERS,
  parseLogSearch,
} from '../../src/ui/lib/log-filters'
import { attemptsOf, excerpt, formatDuration, formatLogTime, otherJson } from '../../src/ui/lib/log-rows'

const savedTz = process.env.TZ
beforeAll(() => {
  process.env.TZ = 'Asia/Shanghai'
})
afterAll(() => {
  if (savedTz === undefined) delete process.env.TZ
  else process.env.TZ = savedTz
})

test('no query string means no filters, page 1', () => {
  expect(parseLogSearch('')).toEqual(NO_FILTERS)
  expect(hasFilters(NO_FILTERS)).toBe(false)
  expect(logSearchOf(NO_FILTERS)).toBe('')
})

test('filters survive the round trip through the URL', () => {
  const search = '?type=5&model_name=gpt-4o&token_name=ci&request_id=req-1&username=alice&channel=3&start_timestamp=1795000000&end_timestamp=1795086399&p=3&page_size=50'
  const filters = parseLogSearch(search)
  expect(filters).toEqual({ type: 5, model: 'gpt-4o', token: 'ci', requestId: 'req-1', username: 'alice', channel: 3, start: 1795000000, end: 1795086399, page: 3, pageSize: 50 })
  expect(hasFilters(filters)).toBe(true)
  expect(parseLogSearch(logSearchOf(filters))).toEqual(filters)
  expect(logSearchOf({ ...NO_FILTERS, model: 'a b&c' })).toBe('?model_name=a+b%26c')
})

test('a hand-edited link still opens: malformed values are dropped', () => {
  const filters = parseLogSearch('?type=9&channel=abc&p=-2&page_size=7&start_timestamp=yesterday&model_name=%20gpt%20')
  expect(filters).toEqual({ ...NO_FILTERS, model: 'gpt' })
  expect(parseLogSearch('?page_size=100').pageSize).toBe(100)
  expect(parseLogSearch('?channel=0').channel).toBeUndefined()
})

test('the API query: admins filter by user and channel, users cannot; the stat has no paging', () => {
  const filters = { ...NO_FILTERS, type: 2, username: 'alice', channel: 4, start: 10, page: 2 }
  expect(logListQuery(filters, true)).toEqual({ type: 2, username: 'alice', channel: 4, start_timestamp: 10, p: 2, page_size: DEFAULT_LOG_PAGE_SIZE })
  expect(logListQuery(filters, false)).toEqual({ type: 2, start_timestamp: 10, p: 2, page_size: DEFAULT_LOG_PAGE_SIZE })
  expect(logStatQuery(filters, true)).toEqual({ type: 2, username: 'alice', channel: 4, start_timestamp: 10 })
  expect(logListQuery(NO_FILTERS, false)).toEqual({ p: 1, page_size: DEFAULT_LOG_PAGE_SIZE })
})

test('links to a filtered view start on page 1', () => {
  expect(logsHref({ type: 5 })).toBe('/logs?type=5')
  expect(logsHref({ type: 5, username: 'bob', page: 4 })).toBe('/logs?type=5&username=bob')
})

test('the form: "From" and "To" are local minutes, "To" takes its whole minute', () => {
  const { filters, errors } = filtersOfDraft({ from: '2026-11-23T10:00', to: '2026-11-23T14:05', type: '2', model: ' gpt ', token: '', requestId: '', username: '', channel: '7' }, 50)
  expect(errors).toEqual({})
  expect(filters.start).toBe(Date.parse('2026-11-23T10:00:00+08:00') / 1000)
  expect(filters.end).toBe(Date.parse('2026-11-23T14:05:59+08:00') / 1000)
  expect(filters).toMatchObject({ type: 2, model: 'gpt', channel: 7, page: 1, pageSize: 50 })
  // and back into the form, the same minutes
  expect(draftOf(filters)).toEqual({ from: '2026-11-23T10:00', to: '2026-11-23T14:05', type: '2', model: 'gpt', token: '', requestId: '', username: '', channel: '7' })
})

test('the form refuses a range that ends before it starts and a channel that is not an id', () => {
  const draft = { ...draftOf(NO_FILTERS), from: '2026-11-23T15:00', to: '2026-11-23T14:00', channel: 'x1' }
  expect(filtersOfDraft(draft, 20).errors).toEqual({ to: 'range', channel: 'channel' })
  expect(filtersOfDraft({ ...draft, from: '', channel: '' }, 20).errors).toEqual({})
})

test('durations, excerpts and the retry path read well', () => {
  expect(formatDuration(850, 'en')).toBe('850 ms')
  expect(formatDuration(1234, 'en')).toBe('1.23 sec')
  expect(formatDuration(42_500, 'en')).toBe('42.5 sec')
  expect(formatDuration(125_000, 'en')).toBe('2 min 5 sec')
  expect(formatDuration(850, 'zh-CN')).toBe('850毫秒')
  expect(excerpt('upstream   said\nno', 80)).toBe('upstream said no')
  expect(excerpt('x'.repeat(100), 10)).toBe(`${'x'.repeat(9)}…`)
  expect(attemptsOf({ attempts: [{ channelId: 3, status: 502, error: 'bad gateway' }, { channelId: 5, status: 200 }, { nope: 1 }] })).toEqual([
    { channelId: 3, status: 502, error: 'bad gateway' },
    { channelId: 5, status: 200 },
  ])
  expect(attemptsOf({})).toEqual([])
  expect(attemptsOf(null)).toEqual([])
  expect(otherJson({})).toBe('')
  expect(otherJson({ a: 1 })).toBe('{\n  "a": 1\n}')
})

test('table times leave out the current year', () => {
  const now = Date.parse('2026-11-23T12:00:00+08:00') / 1000
  expect(formatLogTime(Date.parse('2026-11-23T14:07:43+08:00') / 1000, 'en', now)).toBe('Nov 23, 14:07:43')
  expect(formatLogTime(Date.parse('2025-12-31T23:00:00+08:00') / 1000, 'en', now)).toBe('Dec 31, 2025, 23:00:00')
  expect(formatLogTime(Date.parse('2026-11-23T14:07:43+08:00') / 1000, 'zh-CN', now)).toBe('11月23日 14:07:43')
})
