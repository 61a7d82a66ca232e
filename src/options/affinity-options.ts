import type { OptionDefinition } from './option-definition'

/** Model families whose upstreams cache prompts (a resent prefix is read back cheaply on the same account). */
const PROMPT_CACHING_MODELS = '^(claude-|gpt-4o|gpt-4\\.1|gpt-5|o[134]|codex-|gemini-|deepseek-|qwen|kimi-|moonshot-|glm-|grok-)'

const positive = (value: unknown) => ((value as number) < 1 ? 'must be at least 1' : undefined)

/** One regular expression that compiles. */
const regex = (value: unknown) => {
  if ((value as string).length > 1000) return 'must be at most 1000 characters'
  try {
    new RegExp(value as string)
  } catch {
    return 'is not a valid regular expression'
  }
  return undefined
}

/** A JSON object of group → true (every model) or false (none). */
const groupSwitches = (value: unknown) => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'must be an object of group → true or false'
  for (const [group, on] of Object.entries(value as Record<string, unknown>)) {
    if (!group.trim()) return 'has an empty group name'
    if (typeof on !== 'boolean') return `"${group}" must be true or false`
  }
  return undefined
}

/** Session affinity (relay/routing/affinity, docs/routing.md): new-api's `channel_affinity_setting.*` names. */
export const AFFINITY_OPTIONS: Record<string, OptionDefinition> = {
  'channel_affinity_setting.enabled': { type: 'boolean', default: 'true', description: "a session's turns (Claude Code, Codex, opencode, prompt_cache_key, …) go to the channel and key that served it last, so the upstream's prompt cache is read" },
  'channel_affinity_setting.default_ttl_seconds': { type: 'integer', default: '3600', description: 'how long a session stays pinned after its last turn', check: positive },
  'channel_affinity_setting.max_entries': { type: 'integer', default: '100000', description: 'sessions one node remembers at most (the least recently used go first; Redis keeps them by TTL)', check: positive },
  'channel_affinity_setting.model_regex': { type: 'string', default: PROMPT_CACHING_MODELS, description: "models whose sessions are pinned (a regular expression; by default the families with prompt caching; '' = none)", check: regex },
  'channel_affinity_setting.groups': { type: 'json', default: '{}', description: 'group → true (pin the sessions of every model) or false (pin none); other groups follow model_regex', check: groupSwitches },
}
