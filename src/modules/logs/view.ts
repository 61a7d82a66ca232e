import type { LogRow } from '../../db/repos/logs'

function parseOther(text: string): Record<string, unknown> {
  if (!text) return {}
  try {
    const value: unknown = JSON.parse(text)
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {}
  } catch {
    return {}
  }
}

/** A log row as the API shows it. Users see their own rows without channels, retry paths or prices. */
export function logView(row: LogRow, admin: boolean) {
  const other = parseOther(row.other)
  const view = {
    id: row.id,
    created_at: row.createdAt,
    type: row.type,
    user_id: row.userId,
    username: row.username,
    token_id: row.tokenId,
    token_name: row.tokenName,
    model_name: row.modelName,
    upstream_model: row.upstreamModel,
    group: row.group,
    prompt_tokens: row.promptTokens,
    completion_tokens: row.completionTokens,
    cache_read_tokens: row.cacheReadTokens,
    cache_write_tokens: row.cacheWriteTokens,
    reasoning_tokens: row.reasoningTokens,
    quota: row.quota,
    use_time_ms: row.useTimeMs,
    first_token_ms: row.firstTokenMs,
    is_stream: row.isStream,
    status_code: row.statusCode,
    ip: row.ip,
    request_id: row.requestId,
    content: row.content,
  }
  if (admin) return { ...view, channel: row.channelId, other }
  const { attempts: _a, price: _p, ...own } = other
  return { ...view, other: own }
}
