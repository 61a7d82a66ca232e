import type { Flavor } from './channel-types'
import type { Source } from './read-source'

export interface SourceSchema {
  flavor: Flavor
  /** why we think so, for the report */
  evidence: string[]
  tables: Set<string>
  /** the columns of every table we read */
  columns: Map<string, Set<string>>
}

class SchemaError extends Error {}

/** The tables an import reads; the others are counted and named as having no counterpart. */
export const READ_TABLES = ['users', 'tokens', 'channels', 'abilities', 'options', 'redemptions', 'logs', 'quota_data', 'two_fas', 'two_fa_backup_codes', 'passkey_credentials', 'top_ups', 'subscription_plans', 'user_subscriptions', 'custom_oauth_providers', 'user_oauth_bindings', 'midjourneys', 'tasks'] as const

/**
 * new-api or one-api? Both come from the same GORM models, so the tables are the same; the columns tell them
 * apart. new-api added invitation counters to users (`aff_count`, `aff_history`), model limits to tokens and
 * tags / settings / multi-key info to channels; one-api's tokens have `models` and `subnet`, its channels a
 * `config` column. Channel type numbers differ after 25, so getting this right matters.
 */
export async function detectSchema(source: Source): Promise<SourceSchema> {
  const tables = new Set(await source.tables())
  if (!tables.has('users') || !tables.has('tokens') || !tables.has('channels')) {
    const found = [...tables].slice(0, 20).join(', ') || 'none'
    throw new SchemaError(`${source.display} is not a new-api or one-api database: it has no users, tokens and channels tables (tables found: ${found})`)
  }
  const columns = new Map<string, Set<string>>()
  for (const table of READ_TABLES) if (tables.has(table)) columns.set(table, new Set(await source.columns(table)))
  const has = (table: string, column: string) => columns.get(table)?.has(column) ?? false

  const newApi: string[] = []
  const oneApi: string[] = []
  if (has('users', 'aff_count')) newApi.push('users.aff_count')
  if (has('users', 'aff_history')) newApi.push('users.aff_history')
  if (has('tokens', 'model_limits')) newApi.push('tokens.model_limits')
  if (has('channels', 'tag')) newApi.push('channels.tag')
  if (has('channels', 'channel_info')) newApi.push('channels.channel_info')
  if (has('channels', 'setting')) newApi.push('channels.setting')
  if (tables.has('quota_data')) newApi.push('table quota_data')
  if (tables.has('setups')) newApi.push('table setups')
  if (has('tokens', 'subnet')) oneApi.push('tokens.subnet')
  if (has('tokens', 'models')) oneApi.push('tokens.models')
  if (has('channels', 'config')) oneApi.push('channels.config')
  if (has('channels', 'system_prompt')) oneApi.push('channels.system_prompt')
  if (has('logs', 'elapsed_time')) oneApi.push('logs.elapsed_time')

  if (newApi.length === 0 && oneApi.length === 0) {
    throw new SchemaError(
      `${source.display} has users, tokens and channels tables but none of the columns that mark new-api (users.aff_count, tokens.model_limits, channels.tag) or one-api (tokens.subnet, channels.config): refusing to guess its channel type numbers`,
    )
  }
  const flavor: Flavor = newApi.length >= oneApi.length ? 'new-api' : 'one-api'
  const evidence = flavor === 'new-api' ? newApi : oneApi
  const other = flavor === 'new-api' ? oneApi : newApi
  return {
    flavor,
    evidence: other.length ? [...evidence, `(also found ${other.join(', ')}, counted against)`] : evidence,
    tables,
    columns,
  }
}
