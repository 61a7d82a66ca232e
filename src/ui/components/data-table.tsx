import type { ComponentChildren } from 'preact'
import { useI18n } from '../i18n'

export interface Column<Row> {
  /** column header text */
  header: string
  cell(row: Row): ComponentChildren
  /** right-aligned, tabular figures */
  numeric?: boolean
  class?: string
  /**
   * Under 640 px each row becomes a card: the `title` column heads it (the first text column when none is
   * marked), the `key` column (price, balance, status…) stays beside the title, the others are labelled lines.
   */
  card?: 'title' | 'key'
}

interface Selection {
  selected: ReadonlySet<number>
  onChange(next: Set<number>): void
  /** accessible name of a row's checkbox */
  rowLabel(id: number): string
}

interface Props<Row extends { id: number }> {
  caption: string
  columns: readonly Column<Row>[]
  rows: readonly Row[] | undefined
  loading: boolean
  empty: ComponentChildren
  selection?: Selection
}

/** A compact table with a sticky header, skeleton rows while loading and an empty state that says what to do. */
export function DataTable<Row extends { id: number }>({ caption, columns, rows, loading, empty, selection }: Props<Row>) {
  const { t } = useI18n()
  if (rows && rows.length === 0 && !loading) return <>{empty}</>
  const ids = rows?.map((row) => row.id) ?? []
  const cellClass = cardClasses(columns)
  const allSelected = selection !== undefined && ids.length > 0 && ids.every((id) => selection.selected.has(id))
  const toggle = (id: number, on: boolean) => {
    if (!selection) return
    const next = new Set(selection.selected)
    if (on) next.add(id)
    else next.delete(id)
    selection.onChange(next)
  }
  return (
    <div class="table-wrap">
      <table class="table table-cards" aria-busy={loading ? true : undefined}>
        <caption class="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {selection && (
              <th class="col-check">
                <input type="checkbox" aria-label={t('common.selectAll')} checked={allSelected} onChange={(event) => selection.onChange(event.currentTarget.checked ? new Set(ids) : new Set())} />
              </th>
            )}
            {columns.map((column) => (
              <th key={column.header} scope="col" class={column.numeric ? 'num' : column.class}>
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {!rows && loading
            ? [0, 1, 2, 3, 4].map((i) => (
                <tr key={i} class="skeleton-row" aria-hidden="true">
                  {selection && <td />}
                  {columns.map((column) => (
                    <td key={column.header}>
                      <span class="skeleton" />
                    </td>
                  ))}
                </tr>
              ))
            : rows?.map((row) => (
                <tr key={row.id}>
                  {selection && (
                    <td class="col-check">
                      <input type="checkbox" aria-label={selection.rowLabel(row.id)} checked={selection.selected.has(row.id)} onChange={(event) => toggle(row.id, event.currentTarget.checked)} />
                    </td>
                  )}
                  {columns.map((column, index) => (
                    <td key={column.header} class={cellClass[index]} data-label={column.header}>
                      <span class="cell-value">{column.cell(row)}</span>
                    </td>
                  ))}
                </tr>
              ))}
        </tbody>
      </table>
    </div>
  )
}

/** Each column's cell classes: its own, `num`, and its part in the phone's card (`cell-title`, `cell-key`). */
function cardClasses<Row>(columns: readonly Column<Row>[]): string[] {
  const marked = columns.findIndex((column) => column.card === 'title')
  const title = marked >= 0 ? marked : columns.findIndex((column) => !column.numeric && !column.class?.includes('col-actions'))
  return columns.map((column, index) => {
    const names = [column.numeric ? 'num' : '', column.class ?? '', index === title ? 'cell-title' : '', column.card === 'key' ? 'cell-key' : '']
    return names.filter(Boolean).join(' ')
  })
}
