import { csvField, type CsvValue } from '../../csv'
import type { LogCursor, LogFilter, LogRepo } from '../../db/repos/logs'
import { logView } from './view'

/** Rows read per step of an export: the stream holds one such page at a time, whatever the export's size. */
const PAGE_ROWS = 500

type View = ReturnType<typeof logView>

interface Column {
  header: string
  value(view: View, row: { quotaPerUnit: number }): CsvValue
}

const COLUMNS: readonly Column[] = [
  { header: 'time', value: (v) => new Date(v.created_at * 1000).toISOString() },
  { header: 'type', value: (v) => v.type },
  { header: 'username', value: (v) => v.username },
  { header: 'token_name', value: (v) => v.token_name },
  { header: 'model_name', value: (v) => v.model_name },
  { header: 'upstream_model', value: (v) => v.upstream_model },
  { header: 'group', value: (v) => v.group },
  { header: 'prompt_tokens', value: (v) => v.prompt_tokens },
  { header: 'completion_tokens', value: (v) => v.completion_tokens },
  { header: 'cache_read_tokens', value: (v) => v.cache_read_tokens },
  { header: 'cache_write_tokens', value: (v) => v.cache_write_tokens },
  { header: 'reasoning_tokens', value: (v) => v.reasoning_tokens },
  { header: 'quota', value: (v) => v.quota },
  { header: 'cost_usd', value: (v, c) => (c.quotaPerUnit > 0 ? +(v.quota / c.quotaPerUnit).toFixed(6) : '') },
  { header: 'use_time_ms', value: (v) => v.use_time_ms },
  { header: 'first_token_ms', value: (v) => v.first_token_ms },
  { header: 'is_stream', value: (v) => v.is_stream },
  { header: 'status_code', value: (v) => v.status_code },
  { header: 'ip', value: (v) => v.ip },
  { header: 'request_id', value: (v) => v.request_id },
  { header: 'content', value: (v) => v.content },
]
const ADMIN_COLUMNS: readonly Column[] = [...COLUMNS.slice(0, 7), { header: 'channel', value: (v) => ('channel' in v ? v.channel : '') }, ...COLUMNS.slice(7)]

const line = (cells: readonly CsvValue[]) => cells.map(csvField).join(',') + '\r\n'

/**
 * The logs a filter selects as CSV, newest first, streamed: each read of the stream fetches the next page
 * (keyset, so a long export costs no deeper offsets), and a client that stops reading stops the reads.
 * Users get the columns their own log view has (no channel); admins the channel too.
 */
export function logsCsv(logs: Pick<LogRepo, 'listBefore'>, filter: LogFilter, options: { admin: boolean; quotaPerUnit: number; onEnd?(): void }): ReadableStream<Uint8Array> {
  const columns = options.admin ? ADMIN_COLUMNS : COLUMNS
  const encoder = new TextEncoder()
  let before: LogCursor | undefined
  let ended = false
  const end = () => {
    if (!ended) options.onEnd?.()
    ended = true
  }
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        // a byte-order mark first, so Excel reads the file as UTF-8
        controller.enqueue(encoder.encode('\uFEFF' + line(columns.map((c) => c.header))))
      },
      async pull(controller) {
        try {
          const rows = await logs.listBefore(filter, before, PAGE_ROWS)
          if (rows.length === 0) {
            controller.close()
            return end()
          }
          before = { createdAt: rows.at(-1)!.createdAt, id: rows.at(-1)!.id }
          const text = rows.map((row) => line(columns.map((c) => c.value(logView(row, options.admin), options)))).join('')
          controller.enqueue(encoder.encode(text))
        } catch (error) {
          end()
          controller.error(error)
        }
      },
      cancel: end,
    },
    { highWaterMark: 1 },
  )
}
