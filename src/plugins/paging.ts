import type { TInteger, TLiteral, TSchema, TUnion } from '@sinclair/typebox'
import { t } from 'elysia'
import { BadRequestError } from '../errors'

/**
 * Bounds of the integers the API takes in query strings and paths (docs/api.md states them). Each is checked
 * before it reaches SQLite: an offset past 2^63 made SQLite answer "datatype mismatch" (a 500), and a number
 * past 2^53 was silently rounded to a neighbour.
 */
export const Bounds = {
  /** `p`: 1-based; 0 is read as 1 (new-api). A million pages of 100 is further than any list here goes. */
  page: { minimum: 0, maximum: 1_000_000 },
  pageSize: { minimum: 1, maximum: 100 },
  /** ids of rows: SQLite's rowids, as far as a JavaScript number holds them exactly */
  id: { minimum: 1, maximum: Number.MAX_SAFE_INTEGER },
  /** unix seconds up to 9999-12-31T23:59:59Z (a millisecond timestamp sent by mistake is past it) */
  unixSeconds: { minimum: 0, maximum: 253_402_300_799 },
} as const

type IntegerBounds = { minimum: number; maximum: number }
type Where = 'query parameter' | 'path parameter'

const DECIMAL = /^-?[0-9]+$/

/**
 * An integer in a query string or a path, checked as text: plain decimal digits (no exponent, sign other than
 * `-`, hex, fraction or spaces) within `bounds`, else a 400 that names the parameter. Elysia's `t.Integer`
 * accepts `1e20` and `0x10`, and its range errors, raised after it converts the text, lose the field's name.
 * `words` are accepted as they are (the channel list's `status=enabled`).
 */
export function integerParam(name: string, bounds: IntegerBounds, where?: Where): TInteger
export function integerParam<W extends string>(name: string, bounds: IntegerBounds, where: Where, words: readonly W[]): TUnion<[TInteger, ...TLiteral<W>[]]>
export function integerParam(name: string, bounds: IntegerBounds, where: Where = 'query parameter', words: readonly string[] = []): TSchema {
  const expected = `an integer from ${bounds.minimum} to ${bounds.maximum}${words.length ? ` or one of ${words.join(', ')}` : ''}`
  return t
    .Transform(t.String({ description: expected }))
    .Decode((text) => {
      if (words.includes(text)) return text
      const value = DECIMAL.test(text) ? Number(text) : NaN
      if (!(value >= bounds.minimum && value <= bounds.maximum)) {
        const shown = text.length > 40 ? `${text.slice(0, 40)}…` : text
        throw new BadRequestError(`${where} "${name}" must be ${expected}, got ${JSON.stringify(shown)}`, name)
      }
      return value === 0 ? 0 : value // not -0
    })
    .Encode((value) => String(value))
}

/** `:id` in a path: a row id (Bounds.id). */
export const IdParams = t.Object({ id: integerParam('id', Bounds.id, 'path parameter') })

/** Unix seconds in a query (Bounds.unixSeconds). */
export const unixSecondsParam = (name: string) => t.Optional(integerParam(name, Bounds.unixSeconds))

/** new-api paging: `p` (1-based; 0 is taken as 1) and `page_size` (default 10, at most 100). */
export const PageQuery = t.Object(
  {
    p: t.Optional(integerParam('p', Bounds.page)),
    page_size: t.Optional(integerParam('page_size', Bounds.pageSize)),
    keyword: t.Optional(t.String({ maxLength: 200 })),
  },
  { additionalProperties: true },
)

export interface PageWindow {
  page: number
  pageSize: number
  offset: number
}

export function pageWindow(query: { p?: number; page_size?: number }): PageWindow {
  const page = Math.max(1, query.p ?? 1)
  const pageSize = query.page_size ?? 10
  return { page, pageSize, offset: (page - 1) * pageSize }
}

export function pageOf<T>(items: T[], total: number, window: PageWindow) {
  return { items, total, page: window.page, page_size: window.pageSize }
}
