// The import's logs and hourly usage, read in pages from the source and written after the core tables.
import { LogType, type HourlyRow, type ImportRepo, type NewLog } from '../db/repos'
import type { SourceSchema } from './detect-schema'
import type { MapContext } from './map-common'
import { mapLog, mapQuotaData, type IdResolver } from './map-logs'
import type { Source } from './read-source'
import { int } from './values'

/** Source rows read per page. */
const PAGE = 2000

/**
 * Logs from `logsSince` on, in pages (a big log table never sits in memory whole), then new-api's hourly usage
 * (`quota_data`). Tollgate's hourly tables are the sums of its consume logs, so from the first imported log
 * row on they are computed from the logs; quota_data fills the hours before it (new-api keeps quota_data
 * when it deletes old logs, as Tollgate keeps its hourly rows). A dry run maps and counts these rows without
 * writing them.
 */
export async function writeLogs(
  ctx: MapContext,
  repo: ImportRepo,
  logSource: Source,
  logTables: Set<string>,
  mainSource: Source,
  schema: SourceSchema,
  ids: IdResolver,
  options: { logsSince?: number; dryRun: boolean },
  log: (line: string) => void,
): Promise<void> {
  const { report } = ctx
  const since = options.logsSince!
  let firstLog: number | undefined
  const fromLogs = new Map<string, number>() // user, model, hour → quota of the imported consume rows
  if (!logTables.has('logs')) {
    report.issue('logs', '*', "the source has no logs table (new-api's LOG_SQL_DSN keeps them elsewhere: pass it as --logs-from)")
  } else {
    await requireColumns(logSource, 'logs', ['id', 'created_at'])
    let afterId = 0
    for (;;) {
      const page = await logSource.page('logs', { afterId, limit: PAGE, since: { column: 'created_at', value: since } })
      if (page.length === 0) break
      afterId = int(page[page.length - 1]!.id)
      const rows: NewLog[] = []
      for (const row of page) {
        report.read('logs')
        const mapped = mapLog(ctx, row, ids)
        if (!mapped) continue
        rows.push(mapped)
        firstLog = Math.min(firstLog ?? Infinity, mapped.createdAt!)
        if (mapped.type === LogType.consume) {
          const key = `${mapped.userId}\u0000${mapped.modelName}\u0000${Math.floor(mapped.createdAt! / 3600) * 3600}`
          fromLogs.set(key, (fromLogs.get(key) ?? 0) + (mapped.quota ?? 0))
        }
      }
      if (!options.dryRun) await repo.insertLogs(rows)
      report.imported('logs', rows.length)
      const read = report.table('logs').read
      if (Math.floor(read / 100_000) > Math.floor((read - rows.length) / 100_000)) log(`logs: ${read} rows`)
    }
  }

  const quotaSource = schema.tables.has('quota_data') ? mainSource : logTables.has('quota_data') ? logSource : undefined
  if (!quotaSource) return
  await requireColumns(quotaSource, 'quota_data', ['id', 'created_at'])
  const coveredFrom = firstLog === undefined ? Infinity : Math.floor(firstLog / 3600) * 3600
  const superseded = new Map<string, { quota: number; ids: number[] }>()
  let afterId = 0
  for (;;) {
    const page = await quotaSource.page('quota_data', { afterId, limit: PAGE, since: { column: 'created_at', value: since } })
    if (page.length === 0) break
    afterId = int(page[page.length - 1]!.id)
    const rows: HourlyRow[] = []
    for (const row of page) {
      report.read('quota_data')
      const hourly = mapQuotaData(ctx, row, ids)
      if (!hourly) continue
      if (hourly.hour >= coveredFrom) {
        report.skipped('quota_data', 'hour covered by the imported logs')
        const key = `${hourly.userId}\u0000${hourly.modelName}\u0000${hourly.hour}`
        const s = superseded.get(key) ?? { quota: 0, ids: [] }
        s.quota += hourly.quota
        s.ids.push(int(row.id))
        superseded.set(key, s)
        continue
      }
      rows.push(hourly)
    }
    if (!options.dryRun) await repo.addHourly(rows)
    report.imported('quota_data', rows.length)
  }
  for (const [key, s] of superseded) {
    if ((fromLogs.get(key) ?? 0) === s.quota) continue
    for (const id of s.ids) {
      report.issue('quota_data', 'quota', "differs from the sum of the imported logs of the same user, model and hour: the logs' sum is kept", id)
    }
  }
}

async function requireColumns(source: Source, table: string, columns: string[]): Promise<void> {
  const have = new Set(await source.columns(table))
  const missing = columns.filter((c) => !have.has(c))
  if (missing.length) throw new Error(`${source.display}: table ${table} has no ${missing.join(', ')} column: not a new-api / one-api ${table} table`)
}
