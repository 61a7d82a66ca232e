/**
 * What an import read, wrote and could not carry over. Every row read is counted as imported or skipped (with
 * its reason), and every field or value without a counterpart is listed with the source row ids it came from.
 * Values are only shown where they are not secrets: option values and keys are never put in the report.
 */
export interface TableCount {
  read: number
  imported: number
  skipped: number
  /** skipped rows by reason, e.g. `soft-deleted` */
  skipped_by_reason: Record<string, number>
}

export interface Issue {
  table: string
  field: string
  /** the value, when it is not a secret (a type number, a group name…) */
  value?: string
  /** what the value was stored as, when the import changed it (a base URL made the provider root, a type renumbered) */
  mapped_to?: string
  note: string
  /** ids of the source rows it concerns (options: none); at most the first 1,000, `count` has them all */
  ids: number[]
  /** how many rows it concerns */
  count: number
}

export interface ReportJson {
  tool: string
  version: string
  source: { location: string; engine: string; schema: string; evidence: string[] }
  /** sqlite_path: the SQLite file written; database_url: the PostgreSQL database instead (password hidden), else null */
  target: { sqlite_path: string | null; database_url: string | null; dry_run: boolean; merge: boolean; logs_since: string | null }
  started_at: string
  finished_at: string | null
  outcome: 'committed' | 'dry-run' | 'refused' | 'failed'
  error: string | null
  tables: Record<string, TableCount>
  unsupported_channels: { id: number; name: string; source_type: number; source_type_name: string; stored_type: number }[]
  /** tables of the source left out whole: their row counts and why (no counterpart, no --logs-since) */
  not_imported_tables: Record<string, { rows: number; reason: string }>
  issues: Issue[]
}

const MAX_IDS = 1000

export class Report {
  readonly json: ReportJson
  private readonly issueIndex = new Map<string, Issue>()

  constructor(init: Pick<ReportJson, 'tool' | 'version' | 'source' | 'target'>) {
    this.json = {
      ...init,
      started_at: new Date().toISOString(),
      finished_at: null,
      outcome: 'failed',
      error: null,
      tables: {},
      unsupported_channels: [],
      not_imported_tables: {},
      issues: [],
    }
  }

  table(name: string): TableCount {
    return (this.json.tables[name] ??= { read: 0, imported: 0, skipped: 0, skipped_by_reason: {} })
  }

  read(table: string, n = 1): void {
    this.table(table).read += n
  }

  imported(table: string, n = 1): void {
    this.table(table).imported += n
  }

  skipped(table: string, reason: string, n = 1): void {
    const t = this.table(table)
    t.skipped += n
    t.skipped_by_reason[reason] = (t.skipped_by_reason[reason] ?? 0) + n
  }

  /** Record a field or value without a counterpart; the same (table, field, value, note) collects its ids. */
  issue(table: string, field: string, note: string, id?: number, value?: string): void {
    this.add(table, field, note, id, value, undefined)
  }

  /** Record a value the import stored as another (`from` → `to`), with why; the same mapping collects its ids. */
  mapped(table: string, field: string, change: { from: string; to: string }, note: string, id?: number): void {
    this.add(table, field, note, id, change.from, change.to)
  }

  private add(table: string, field: string, note: string, id: number | undefined, value: string | undefined, mappedTo: string | undefined): void {
    const key = `${table}\u0000${field}\u0000${value ?? ''}\u0000${mappedTo ?? ''}\u0000${note}`
    let issue = this.issueIndex.get(key)
    if (!issue) {
      issue = { table, field, ...(value === undefined ? {} : { value }), ...(mappedTo === undefined ? {} : { mapped_to: mappedTo }), note, ids: [], count: 0 }
      this.issueIndex.set(key, issue)
      this.json.issues.push(issue)
    }
    issue.count++
    if (id !== undefined && issue.ids.length < MAX_IDS) issue.ids.push(id)
  }

  finish(outcome: ReportJson['outcome'], error?: string): void {
    this.json.outcome = outcome
    this.json.error = error ?? null
    this.json.finished_at = new Date().toISOString()
  }

  /** The human summary printed at the end. */
  summary(): string {
    const j = this.json
    const lines = [
      `source: ${j.source.location} (${j.source.engine}, ${j.source.schema} schema)`,
      `target: ${j.target.database_url ?? j.target.sqlite_path}${j.target.dry_run ? ' (dry run: nothing written)' : ''}${j.target.merge ? ' (merge)' : ''}`,
      '',
      'table              read  imported  skipped',
    ]
    const width = Math.max(16, ...[...Object.keys(j.tables), ...Object.keys(j.not_imported_tables)].map((name) => name.length))
    lines[3] = `${'table'.padEnd(width)}   read  imported  skipped`
    for (const [name, t] of Object.entries(j.tables)) {
      const reasons = Object.entries(t.skipped_by_reason)
        .map(([reason, n]) => `${n} ${reason}`)
        .join(', ')
      lines.push(`${name.padEnd(width)} ${String(t.read).padStart(6)} ${String(t.imported).padStart(9)} ${String(t.skipped).padStart(8)}${reasons ? `  (${reasons})` : ''}`)
    }
    for (const [name, t] of Object.entries(j.not_imported_tables)) {
      lines.push(`${name.padEnd(width)} ${String(t.rows).padStart(6)} ${'-'.padStart(9)} ${'-'.padStart(8)}  (not imported: ${t.reason})`)
    }
    if (j.unsupported_channels.length > 0) {
      lines.push('', 'channels of types Tollgate does not serve yet (imported disabled):')
      for (const c of j.unsupported_channels) lines.push(`  #${c.id} ${c.name}: ${c.source_type_name} (source type ${c.source_type})`)
    }
    if (j.issues.length > 0) {
      lines.push('', `${j.issues.length} field(s) or value(s) without a counterpart or changed on the way (details in the JSON report):`)
      for (const i of j.issues) {
        const ids = i.ids.length ? ` [ids ${i.ids.slice(0, 10).join(', ')}${i.count > 10 ? `, … ${i.count} rows in all` : ''}]` : ''
        const value = i.mapped_to !== undefined ? ` = ${i.value || '(empty)'} → ${i.mapped_to}` : i.value !== undefined ? ` = ${i.value}` : ''
        lines.push(`  ${i.table}.${i.field}${value}: ${i.note}${ids}`)
      }
    }
    lines.push('', `outcome: ${j.outcome}${j.error ? `: ${j.error}` : ''}`)
    return lines.join('\n')
  }
}
