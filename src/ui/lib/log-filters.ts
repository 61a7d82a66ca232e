/**
 * The logs page's filters, kept in the URL's query string so a filtered view is a link that survives a reload.
 * The URL uses the API's own names (`type`, `model_name`, `start_timestamp`, `p`…), times in unix seconds.
 */
import type { Query } from '../api/client'
import { fromLocalInput, toLocalInput } from './format'

/** 1 top-up, 2 consume, 3 manage, 4 system, 5 error; 0 means every type. */
export const LOG_TYPES = [1, 2, 3, 4, 5] as const
export const LogTypeId = { all: 0, topup: 1, consume: 2, manage: 3, system: 4, error: 5 } as const
const LOG_PAGE_SIZES = [10, 20, 50, 100] as const
export const DEFAULT_LOG_PAGE_SIZE = 20

export interface LogFilters {
  /** unix seconds, inclusive */
  start?: number
  /** unix seconds, inclusive */
  end?: number
  type: number
  model: string
  token: string
  requestId: string
  /** admins only */
  username: string
  /** admins only */
  channel?: number
  page: number
  pageSize: number
}

export const NO_FILTERS: LogFilters = { type: 0, model: '', token: '', requestId: '', username: '', page: 1, pageSize: DEFAULT_LOG_PAGE_SIZE }

const MAX_TIME = 253_402_300_799

const wholeNumber = (text: string | null, min: number, max: number): number | undefined => {
  if (text === null || !/^\d+$/.test(text.trim())) return undefined
  const value = Number(text)
  return value >= min && value <= max ? value : undefined
}

/** Filters from a query string; anything malformed is dropped rather than refused (a hand-edited link still opens). */
export function parseLogSearch(search: string): LogFilters {
  const params = new URLSearchParams(search)
  const text = (key: string) => (params.get(key) ?? '').trim().slice(0, 200)
  const pageSize = wholeNumber(params.get('page_size'), 1, 100)
  return {
    start: wholeNumber(params.get('start_timestamp'), 0, MAX_TIME),
    end: wholeNumber(params.get('end_timestamp'), 0, MAX_TIME),
    type: wholeNumber(params.get('type'), 0, 5) ?? 0,
    model: text('model_name'),
    token: text('token_name'),
    requestId: text('request_id'),
    username: text('username'),
    channel: wholeNumber(params.get('channel'), 1, Number.MAX_SAFE_INTEGER),
    page: wholeNumber(params.get('p'), 1, Number.MAX_SAFE_INTEGER) ?? 1,
    pageSize: pageSize !== undefined && (LOG_PAGE_SIZES as readonly number[]).includes(pageSize) ? pageSize : DEFAULT_LOG_PAGE_SIZE,
  }
}

/** The filters as API query parameters (no paging); `admin` keeps the user and channel filters. */
function filterParams(f: LogFilters, admin: boolean): [string, string | number | undefined][] {
  return [
    ['type', f.type || undefined],
    ['model_name', f.model || undefined],
    ['token_name', f.token || undefined],
    ['request_id', f.requestId || undefined],
    ['username', admin ? f.username || undefined : undefined],
    ['channel', admin ? f.channel : undefined],
    ['start_timestamp', f.start],
    ['end_timestamp', f.end],
  ]
}

const queryOf = (entries: [string, string | number | undefined][]): Query => Object.fromEntries(entries.filter(([, value]) => value !== undefined))

/** `GET /api/log/` (admin) or `/api/log/self`: filters and the page. */
export const logListQuery = (f: LogFilters, admin: boolean): Query => queryOf([...filterParams(f, admin), ['p', f.page], ['page_size', f.pageSize]])

/** `GET /api/log/stat` or `/api/log/self/stat`: the same filters, no paging. */
export const logStatQuery = (f: LogFilters, admin: boolean): Query => queryOf(filterParams(f, admin))

/** The URL's query string for the filters ('' when there are none), defaults left out. */
export function logSearchOf(f: LogFilters): string {
  const entries = filterParams(f, true)
  if (f.page > 1) entries.push(['p', f.page])
  if (f.pageSize !== DEFAULT_LOG_PAGE_SIZE) entries.push(['page_size', f.pageSize])
  const params = new URLSearchParams()
  for (const [key, value] of entries) if (value !== undefined) params.set(key, String(value))
  const text = params.toString()
  return text ? `?${text}` : ''
}

/** A link to the logs page showing these filters (page 1). */
export const logsHref = (patch: Partial<LogFilters>): string => `/logs${logSearchOf({ ...NO_FILTERS, ...patch, page: 1 })}`

/** Whether anything narrows the list (paging aside). */
export function hasFilters(f: LogFilters): boolean {
  return f.start !== undefined || f.end !== undefined || f.type !== 0 || f.model !== '' || f.token !== '' || f.requestId !== '' || f.username !== '' || f.channel !== undefined
}

/** What the filter form edits: its fields' strings. */
export interface LogFilterDraft {
  /** `datetime-local` values, in the browser's zone */
  from: string
  to: string
  type: string
  model: string
  token: string
  requestId: string
  username: string
  channel: string
}

export function draftOf(f: LogFilters): LogFilterDraft {
  return {
    from: f.start !== undefined ? toLocalInput(f.start) : '',
    to: f.end !== undefined ? toLocalInput(f.end) : '',
    type: String(f.type),
    model: f.model,
    token: f.token,
    requestId: f.requestId,
    username: f.username,
    channel: f.channel !== undefined ? String(f.channel) : '',
  }
}

export type DraftError = 'from' | 'to' | 'range' | 'channel'

/**
 * The draft checked and turned into filters on page 1 (the page size kept). "To" names a minute and takes
 * all of it: 14:05 includes 14:05:59.
 */
export function filtersOfDraft(d: LogFilterDraft, pageSize: number): { filters: LogFilters; errors: Partial<Record<keyof LogFilterDraft, DraftError>> } {
  const errors: Partial<Record<keyof LogFilterDraft, DraftError>> = {}
  const start = fromLocalInput(d.from)
  const toMinute = fromLocalInput(d.to)
  if (d.from && start === undefined) errors.from = 'from'
  if (d.to && toMinute === undefined) errors.to = 'to'
  const end = toMinute !== undefined ? toMinute + 59 : undefined
  if (start !== undefined && end !== undefined && start > end) errors.to = 'range'
  const channelText = d.channel.trim()
  const channel = channelText ? wholeNumber(channelText, 1, Number.MAX_SAFE_INTEGER) : undefined
  if (channelText && channel === undefined) errors.channel = 'channel'
  const type = wholeNumber(d.type, 0, 5) ?? 0
  const filters: LogFilters = {
    start: start !== undefined && start >= 0 ? start : undefined,
    end: end !== undefined && end >= 0 ? end : undefined,
    type,
    model: d.model.trim(),
    token: d.token.trim(),
    requestId: d.requestId.trim(),
    username: d.username.trim(),
    channel,
    page: 1,
    pageSize,
  }
  return { filters, errors }
}
