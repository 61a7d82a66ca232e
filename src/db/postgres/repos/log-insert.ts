import type { SQL } from 'bun'
import type { HourlyRow } from '../../repos/import'
import { consumeHours, sumHours, type HourSum } from '../../repos/hourly-sums'
import type { NewLog } from '../../repos/logs'

type Kind = 'int8' | 'int4' | 'text' | 'bool'

/** The logs columns an insert fills, the row field each comes from, and its array type. */
const COLUMNS: [column: string, field: keyof NewLog, kind: Kind][] = [
  ['created_at', 'createdAt', 'int8'], ['type', 'type', 'int4'], ['user_id', 'userId', 'int4'], ['username', 'username', 'text'],
  ['token_id', 'tokenId', 'int4'], ['token_name', 'tokenName', 'text'], ['model_name', 'modelName', 'text'],
  ['upstream_model', 'upstreamModel', 'text'], ['channel_id', 'channelId', 'int4'], ['"group"', 'group', 'text'],
  ['prompt_tokens', 'promptTokens', 'int4'], ['completion_tokens', 'completionTokens', 'int4'], ['cache_read_tokens', 'cacheReadTokens', 'int4'],
  ['cache_write_tokens', 'cacheWriteTokens', 'int4'], ['reasoning_tokens', 'reasoningTokens', 'int4'], ['quota', 'quota', 'int8'],
  ['use_time_ms', 'useTimeMs', 'int4'], ['first_token_ms', 'firstTokenMs', 'int4'], ['is_stream', 'isStream', 'bool'],
  ['status_code', 'statusCode', 'int4'], ['ip', 'ip', 'text'], ['request_id', 'requestId', 'text'], ['content', 'content', 'text'],
  ['other', 'other', 'text'],
]

const arrays = (kinds: Kind[], from = 1) => kinds.map((kind, i) => `$${from + i}::${kind}[]`).join(', ')
const HOUR_KINDS: Kind[] = ['int4', 'text', 'text', 'int8', 'int4', 'int8', 'int8']
const MODEL_HOUR_KINDS: Kind[] = ['int8', 'text', 'int4', 'int8', 'int8']

/**
 * The rows, their per-user-and-model hourly sums and their per-model hourly sums as ONE statement (so one round
 * trip and atomic without a transaction): each column goes as an array and `unnest` turns them back into rows,
 * so the statement's text and parameter count do not depend on the batch size and it is prepared once.
 */
const STATEMENT = `WITH rows AS (
  INSERT INTO logs (${COLUMNS.map(([c]) => c).join(', ')}) SELECT * FROM unnest(${arrays(COLUMNS.map(([, , k]) => k))})
), hours AS (
  INSERT INTO usage_hourly (user_id, username, model_name, hour, count, quota, token_used)
  SELECT * FROM unnest(${arrays(HOUR_KINDS, COLUMNS.length + 1)})
  ON CONFLICT (user_id, model_name, hour) DO UPDATE SET count = usage_hourly.count + excluded.count, quota = usage_hourly.quota + excluded.quota,
    token_used = usage_hourly.token_used + excluded.token_used, username = excluded.username
)
INSERT INTO usage_hourly_model (hour, model_name, count, quota, token_used)
SELECT * FROM unnest(${arrays(MODEL_HOUR_KINDS, COLUMNS.length + HOUR_KINDS.length + 1)})
ON CONFLICT (hour, model_name) DO UPDATE SET count = usage_hourly_model.count + excluded.count, quota = usage_hourly_model.quota + excluded.quota,
  token_used = usage_hourly_model.token_used + excluded.token_used`

/** PostgreSQL's text cannot hold NUL: an upstream's error text with one would fail the whole batch. */
const storable = (text: string) => (text.includes('\0') ? text.replaceAll('\0', '\uFFFD') : text)

/** The columns of `rows` as arrays, with the schema's defaults: '' for text, 0 for numbers, now for created_at. */
function columnsOf(rows: NewLog[], now: number): unknown[][] {
  return COLUMNS.map(([, field, kind]) =>
    rows.map((row) => {
      const v = row[field]
      if (field === 'createdAt') return (v as number | undefined) ?? now
      if (kind === 'bool') return Boolean(v)
      if (kind === 'text') return storable((v as string | undefined) ?? '')
      return (v as number | undefined) ?? 0
    }),
  )
}

/** Hourly tuples summed as both upserts take them (hourly-sums.ts), as their arrays. */
function hourlyArrays(tuples: Iterable<HourSum>): { hours: unknown[][]; modelHours: unknown[][] } {
  const storableTuples = function* () {
    for (const t of tuples) yield [t[0], storable(t[1]), storable(t[2]), t[3], t[4], t[5], t[6]] as HourSum
  }
  const { hours, modelHours } = sumHours(storableTuples())
  return { hours: transpose(hours, HOUR_KINDS.length), modelHours: transpose(modelHours, MODEL_HOUR_KINDS.length) }
}

const transpose = (tuples: unknown[][], width: number): unknown[][] => Array.from({ length: width }, (_, c) => tuples.map((t) => t[c]))

/** Bind parameters per statement stay far below PostgreSQL's limits at any batch size; this only bounds a statement's bytes. */
const CHUNK = 5000

/** Insert log rows and their hourly sums; each chunk of rows is one statement (atomic by itself). `sql` may be a transaction. */
export async function insertLogs(sql: SQL, rows: NewLog[]): Promise<void> {
  const now = Math.floor(Date.now() / 1000)
  for (let i = 0; i < rows.length; i += CHUNK) {
    const chunk = rows.slice(i, i + CHUNK)
    const { hours, modelHours } = hourlyArrays(consumeHours(chunk, now))
    await sql.unsafe(STATEMENT, [...columnsOf(chunk, now), ...hours, ...modelHours])
  }
}

/** The same, all of the rows or none: one statement, or a transaction around the chunks of a batch larger than one. */
export async function insertLogsAtomically(client: SQL, rows: NewLog[]): Promise<void> {
  if (rows.length === 0) return
  if (rows.length <= CHUNK) return insertLogs(client, rows)
  await client.begin((tx) => insertLogs(tx, rows))
}

/** Hourly usage that no log row accounts for (the import's older hours): both hourly tables, added to what is there. */
export async function addHourly(sql: SQL, rows: HourlyRow[]): Promise<void> {
  for (let i = 0; i < rows.length; i += CHUNK) {
    const { hours, modelHours } = hourlyArrays(rows.slice(i, i + CHUNK).map((r): HourSum => [r.userId, r.username, r.modelName, r.hour, r.count, r.quota, r.tokenUsed]))
    await sql.unsafe(STATEMENT, [...COLUMNS.map(() => []), ...hours, ...modelHours])
  }
}
