/**
 * What names a coding agent's session, from what clients already send (docs/routing.md lists them per client).
 * The first source found wins; its rule names the entry in the affinity cache (stats and clears are per rule).
 */
export interface SessionIdentity {
  rule: SessionRule
  id: string
}

export type SessionRule = 'claude-code' | 'codex' | 'opencode' | 'prompt-cache-key' | 'gemini-cached-content' | 'openai-user'

export const SESSION_RULES: readonly SessionRule[] = ['claude-code', 'codex', 'opencode', 'prompt-cache-key', 'gemini-cached-content', 'openai-user']

/** A longer value is not an id a client made up for a session: it is ignored (nothing unbounded is hashed or kept). */
const MAX_ID_CHARS = 512

type Member = (key: string) => unknown

/** The session a request belongs to, or undefined when it names none. `member` reads a top-level field of the body. */
export function sessionIdentity(headers: Headers, member: Member): SessionIdentity | undefined {
  return (
    from('claude-code', headers.get('x-claude-code-session-id') ?? claudeMetadataSession(member('metadata'))) ??
    from('codex', headers.get('session_id') ?? headers.get('session-id')) ??
    from('opencode', headers.get('x-session-affinity') ?? headers.get('x-session-id')) ??
    from('prompt-cache-key', member('prompt_cache_key')) ??
    from('gemini-cached-content', member('cachedContent') ?? member('cached_content')) ??
    from('openai-user', member('user'))
  )
}

function from(rule: SessionRule, value: unknown): SessionIdentity | undefined {
  if (typeof value !== 'string') return undefined
  const id = value.trim()
  return id.length > 0 && id.length <= MAX_ID_CHARS ? { rule, id } : undefined
}

/**
 * Claude Code's `metadata.user_id`: a JSON string `{"device_id", "account_uuid", "session_id"}` (2.1), or before it
 * `user_<device>_account_<uuid>_session_<uuid>`. Only the session part: one device runs many sessions.
 */
function claudeMetadataSession(metadata: unknown): string | undefined {
  if (typeof metadata !== 'object' || metadata === null) return undefined
  const userId = (metadata as Record<string, unknown>).user_id
  if (typeof userId !== 'string' || userId.length > 4 * MAX_ID_CHARS) return undefined
  if (userId.startsWith('{')) {
    try {
      const sessionId = (JSON.parse(userId) as Record<string, unknown>).session_id
      return typeof sessionId === 'string' ? sessionId : undefined
    } catch {
      return undefined
    }
  }
  const at = userId.lastIndexOf('_session_')
  return at >= 0 ? userId.slice(at + '_session_'.length) : undefined
}
