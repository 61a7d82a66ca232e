// The API's own rules, applied to imported rows: a value the console or /api could not have stored does not
// come in through the importer either. The schemas are the routes' (one place for each rule).
import type { TSchema } from '@sinclair/typebox'
import { compiledSchema } from '../protocols/schema-check'
import type { Report } from './report'
import { text } from './values'

/** A value the API refuses: the row is not imported. */
interface Refusal {
  field: string
  reason: string
  value?: string
}

/** What the report may show of a value: short text as it is, long text by its length only (never the text). */
function shown(value: unknown): string {
  const s = typeof value === 'string' ? value : text(value)
  return s.length <= 64 ? s : `(${s.length} characters)`
}

/** An exact whole number, or undefined: 1e300, 1.5, 'abc' and a bigint beyond ±(2^53−1) are not. */
export function exactInt(value: unknown): number | undefined {
  if (value === null || value === undefined || value === '') return 0
  if (typeof value === 'bigint') return value >= BigInt(-Number.MAX_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : undefined
  if (typeof value === 'boolean') return value ? 1 : 0
  const t = typeof value === 'number' ? value : text(value).trim()
  if (typeof t === 'string' && !/^-?\d+$/.test(t)) return undefined
  const n = Number(t)
  return Number.isSafeInteger(n) ? n : undefined
}

/**
 * The checks of one source row. Numbers first pass `exactInt`; balances and counters below zero are clamped to
 * 0 (Tollgate never holds a negative balance: spending beyond it settles at 0 and logs the rest unpaid); every
 * value is then checked against the API schema of its field. The first refusal wins; `accept()` reports it.
 */
export class RowRules {
  private refusal: Refusal | undefined

  constructor(
    private readonly report: Report,
    private readonly table: string,
    private readonly id: number,
  ) {}

  /** A whole number for `field`, checked against `schema`; `clamp`: a negative one becomes 0 (reported). */
  int(field: string, raw: unknown, schema: TSchema, options: { clamp?: boolean; fallback?: number } = {}): number {
    if ((raw === null || raw === undefined || raw === '') && options.fallback !== undefined) return options.fallback
    const n = exactInt(raw)
    if (n === undefined) return this.refuse(field, 'not a whole number Tollgate can hold exactly (within ±(2^53−1))', shown(raw)), 0
    if (n < 0 && options.clamp) {
      this.report.mapped(this.table, field, { from: String(n), to: '0' }, 'below zero, which the API never stores (a balance settles at 0, the rest is logged unpaid): imported as 0', this.id)
      return 0
    }
    this.check(field, n, schema)
    return n
  }

  /** A value checked against the API's schema for its field, returned as it is. */
  value<T>(field: string, value: T, schema: TSchema): T {
    this.check(field, value, schema)
    return value
  }

  /** Refuse the row for a reason no schema states (an id, a hash). */
  refuse(field: string, reason: string, value?: string): void {
    this.refusal ??= { field, reason, ...(value === undefined ? {} : { value }) }
  }

  /** True when every value passed; otherwise the row is counted as skipped and the refusal listed with its id. */
  accept(): boolean {
    const r = this.refusal
    if (!r) return true
    this.report.skipped(this.table, 'refused by the API rules')
    this.report.issue(this.table, r.field, `${r.reason}: the API would refuse it, so the row is not imported`, this.id, r.value)
    return false
  }

  private check(field: string, value: unknown, schema: TSchema): void {
    if (this.refusal) return
    const check = compiledSchema(schema)
    if (check.Check(value)) return
    const first = check.Errors(value).First()
    this.refuse(field, first?.message ?? 'outside the API rule', shown(value))
  }
}
