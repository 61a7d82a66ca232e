import type { Flavor } from './channel-types'
import type { SourceRow } from './read-source'
import type { Report } from './report'
import { int, isSet } from './values'

export interface MapContext {
  flavor: Flavor
  report: Report
}

/**
 * Report every column of a source row that the mapping did not read and that holds a value (a zero, '' or NULL
 * is the column's default and says nothing). Columns listed in `notes` get their own explanation.
 */
export function reportUnread(
  ctx: MapContext,
  table: string,
  row: SourceRow,
  read: ReadonlySet<string>,
  notes: Readonly<Record<string, string>> = {},
): void {
  const id = int(row.id)
  for (const [column, value] of Object.entries(row)) {
    if (read.has(column) || !isSet(value)) continue
    ctx.report.issue(table, column, notes[column] ?? 'no counterpart in Tollgate: not imported', id)
  }
}
