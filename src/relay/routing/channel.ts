import { splitList, type ChannelRow } from '../../db/repos/channels'
import { providerFor } from '../../providers/registry'
import type { Provider } from '../../providers/types'
import { parseStoredMapping, type ModelMapping } from './model-mapping'
import { overridesOf, type ChannelOverrides } from '../overrides/channel-overrides'

/**
 * A channel as the relay sees it: parsed lists and JSON, the provider resolved, keys decrypted.
 * Lives only in memory; `keys` must never reach a response or a log.
 */
export interface Channel {
  id: number
  type: number
  provider: Provider
  name: string
  /** Decrypted keys, one per line of the stored key; used in turn. May be [] for keyless providers. */
  keys: string[]
  /** Effective base URL: the channel's own, else the provider default. */
  baseUrl: string
  models: string[]
  groups: string[]
  priority: number
  weight: number
  tag: string
  /** 1 enabled, 2 manually disabled, 3 auto disabled */
  status: number
  modelMapping: ModelMapping
  autoBan: boolean
  testModel: string
  /** Raw `other` (Azure api-version and the like), passed to upstreamRequest. */
  other: string
  /** `setting` parsed as a JSON object ({} when empty or not an object). */
  setting: Record<string, unknown>
  /** param and header overrides, status mapping, system prompt, proxy (relay/overrides) */
  overrides: ChannelOverrides
}

/**
 * Keys as stored: one per line. A JSON key (a Vertex service account, pasted pretty-printed, or an array of them)
 * is one key per object, kept as compact one-line JSON, so its own line breaks never split it.
 */
export function splitKeys(text: string): string[] {
  const json = jsonKeys(text)
  if (json) return json
  return text
    .split('\n')
    .map((k) => k.trim())
    .filter(Boolean)
}

function jsonKeys(text: string): string[] | undefined {
  const trimmed = text.trim()
  if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) return undefined
  try {
    const value: unknown = JSON.parse(trimmed)
    const items = Array.isArray(value) ? value : [value]
    if (!items.every((item) => item && typeof item === 'object' && !Array.isArray(item))) return undefined
    return items.map((item) => JSON.stringify(item))
  } catch {
    // several compact JSON keys, one per line (what this function stores)
    const lines = trimmed.split('\n').map((l) => l.trim()).filter(Boolean)
    return lines.every((l) => l.startsWith('{')) && lines.length > 1 ? lines : undefined
  }
}

function parseJsonObject(text: string): Record<string, unknown> {
  if (!text.trim()) return {}
  try {
    const value: unknown = JSON.parse(text)
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {}
  } catch {
    return {}
  }
}

/** Row + decrypted key text → Channel; undefined when the type has no provider (left out of routing). */
export function toChannel(row: ChannelRow, keyText: string): Channel | undefined {
  const provider = providerFor(row.type)
  if (!provider) return undefined
  const setting = parseJsonObject(row.setting)
  return {
    id: row.id,
    type: row.type,
    provider,
    name: row.name,
    keys: splitKeys(keyText),
    baseUrl: row.baseUrl || provider.defaultBaseUrl,
    models: splitList(row.models),
    groups: splitList(row.group),
    priority: row.priority,
    weight: row.weight,
    tag: row.tag,
    status: row.status,
    modelMapping: parseStoredMapping(row.modelMapping),
    autoBan: row.autoBan !== 0,
    testModel: row.testModel,
    other: row.other,
    setting,
    overrides: overridesOf(row, setting, provider.otherInBody && row.other ? { [provider.otherInBody]: row.other } : undefined),
  }
}
