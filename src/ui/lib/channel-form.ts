import { findCycle } from '../../relay/routing/mapping-cycle'
/** The channel form's pure parts: name lists, key pools and the model mapping, checked as the server checks them. */

/** `a, b` or one per line → `['a', 'b']`: trimmed, blanks dropped, duplicates once. */
export function splitNames(text: string): string[] {
  return [...new Set(text.split(/[,\n]/).map((s) => s.trim()).filter(Boolean))]
}

/** How many keys the text holds: a JSON key (a service account, one object or an array of them) is one per object, else one per line. */
export function keyCount(text: string): number {
  const trimmed = text.trim()
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      const value: unknown = JSON.parse(trimmed)
      return Array.isArray(value) ? value.length : 1
    } catch {
      // not JSON (yet): counted by lines
    }
  }
  return splitKeyLines(text).length
}

/** Keys typed one per line (a multi-key pool when more than one). */
export function splitKeyLines(text: string): string[] {
  return text
    .split('\n')
    .map((k) => k.trim())
    .filter(Boolean)
}

/** Names added to a list, keeping its order and skipping those already there. */
export function mergeNames(current: readonly string[], more: readonly string[]): string[] {
  return [...new Set([...current, ...more])]
}

export type MappingError = { code: 'json' } | { code: 'object' } | { code: 'value'; name: string } | { code: 'cycle'; path: string }

/**
 * A model mapping (requested → upstream) as JSON text: '' is none; otherwise an object of non-empty
 * strings without a cycle (`a → a` is allowed). Mirrors src/relay/routing/model-mapping.ts.
 */
export function checkModelMapping(text: string): { mapping: Record<string, string> } | { error: MappingError } {
  if (!text.trim()) return { mapping: {} }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return { error: { code: 'json' } }
  }
  if (value === null) return { mapping: {} }
  if (typeof value !== 'object' || Array.isArray(value)) return { error: { code: 'object' } }
  const mapping: Record<string, string> = {}
  for (const [from, to] of Object.entries(value)) {
    if (typeof to !== 'string' || !to.trim()) return { error: { code: 'value', name: from } }
    mapping[from] = to.trim()
  }
  const cycle = findCycle(mapping)
  return cycle ? { error: { code: 'cycle', path: cycle.join(' → ') } } : { mapping }
}

/** The channel drawer's fields as typed (text, so a half-typed number stays what the person typed). */
export interface ChannelForm {
  type: string
  name: string
  key: string
  /** edit only: add the typed key lines to the stored ones instead of replacing them */
  appendKeys: boolean
  baseUrl: string
  models: string
  groups: string
  priority: string
  weight: string
  tag: string
  modelMapping: string
  testModel: string
  autoBan: boolean
  /** what the type reads from `other` (Azure's api-version, Cloudflare's account, Vertex's region) */
  other: string
}

/** What the form needs of a stored channel (the API's channel view). */
export interface StoredChannel {
  id: number
  type: number
  name: string
  base_url: string
  models: string
  group: string
  priority: number
  weight: number
  tag: string
  model_mapping: string
  test_model: string
  auto_ban: number
  other?: string
}

export function formOf(channel?: StoredChannel, type = 1): ChannelForm {
  return {
    type: String(channel?.type ?? type),
    name: channel?.name ?? '',
    key: '',
    appendKeys: false,
    baseUrl: channel?.base_url ?? '',
    models: channel ? splitNames(channel.models).join(', ') : '',
    groups: channel ? splitNames(channel.group).join(', ') : 'default',
    priority: String(channel?.priority ?? 0),
    weight: String(channel?.weight ?? 0),
    tag: channel?.tag ?? '',
    modelMapping: channel?.model_mapping ? prettyJson(channel.model_mapping) : '',
    testModel: channel?.test_model ?? '',
    autoBan: channel ? channel.auto_ban === 1 : true,
    other: channel?.other ?? '',
  }
}

export type FieldProblem = { code: 'required' } | { code: 'url' } | { code: 'keyToMove' } | { code: 'range'; min: number; max: number } | { code: 'mapping'; error: MappingError }
export type FormField = 'name' | 'key' | 'baseUrl' | 'models' | 'priority' | 'weight' | 'modelMapping'

const PRIORITY = { min: -1_000_000_000, max: 1_000_000_000 }
const WEIGHT = { min: 0, max: 1_000_000 }

function wholeIn(text: string, range: { min: number; max: number }): number | undefined {
  if (!/^\s*-?\d+\s*$/.test(text)) return undefined
  const n = Number(text)
  return n >= range.min && n <= range.max ? n : undefined
}

/**
 * The form checked before sending, as the server would: a name; a key when creating a channel of a type
 * that needs one; a base URL when the type has no default (and an http(s) one when given); at least one
 * model; whole-number priority and weight in range; a valid model mapping.
 */
export function checkChannelForm(form: ChannelForm, context: { creating: boolean; keyRequired: boolean; baseUrlRequired: boolean }): Partial<Record<FormField, FieldProblem>> {
  const problems: Partial<Record<FormField, FieldProblem>> = {}
  if (!form.name.trim()) problems.name = { code: 'required' }
  if (context.creating && context.keyRequired && splitKeyLines(form.key).length === 0) problems.key = { code: 'required' }
  const baseUrl = form.baseUrl.trim()
  if (!baseUrl && context.baseUrlRequired) problems.baseUrl = { code: 'required' }
  else if (baseUrl && !/^https?:\/\/[^\s/]+\S*$/i.test(baseUrl)) problems.baseUrl = { code: 'url' }
  if (splitNames(form.models).length === 0) problems.models = { code: 'required' }
  if (wholeIn(form.priority, PRIORITY) === undefined) problems.priority = { code: 'range', ...PRIORITY }
  if (wholeIn(form.weight, WEIGHT) === undefined) problems.weight = { code: 'range', ...WEIGHT }
  const mapping = checkModelMapping(form.modelMapping)
  if ('error' in mapping) problems.modelMapping = { code: 'mapping', error: mapping.error }
  return problems
}

/**
 * Whether the edit changes where the stored keys are sent (type, base URL, or `other` when the type puts it in the
 * address: Vertex's region, Cloudflare's account) while not replacing them. The server then wants the key again
 * unless the caller is root (src/modules/channels/key-destination.ts); the form says so before sending.
 */
export function movesStoredKey(form: ChannelForm, stored: StoredChannel, otherAddressed: boolean): boolean {
  if (splitKeyLines(form.key).length > 0 && !form.appendKeys) return false
  const baseUrl = form.baseUrl.trim().replace(/\/+$/, '')
  return Number(form.type) !== stored.type || baseUrl !== stored.base_url || (otherAddressed && form.other.trim() !== (stored.other ?? ''))
}

/**
 * The create (POST) or edit (PUT, with `id`) body, field names as src/modules/channels/schemas.ts has them.
 * On edit an empty key is left out, which keeps the stored keys.
 */
export function channelBody(form: ChannelForm, id?: number): Record<string, unknown> {
  const mapping = checkModelMapping(form.modelMapping)
  const body: Record<string, unknown> = {
    type: Number(form.type),
    name: form.name.trim(),
    base_url: form.baseUrl.trim().replace(/\/+$/, ''),
    models: splitNames(form.models).join(','),
    group: splitNames(form.groups).join(',') || 'default',
    priority: Number(form.priority),
    weight: Number(form.weight),
    tag: form.tag.trim(),
    model_mapping: 'mapping' in mapping && Object.keys(mapping.mapping).length ? JSON.stringify(mapping.mapping) : '',
    test_model: form.testModel.trim(),
    auto_ban: form.autoBan ? 1 : 0,
    other: form.other.trim(),
  }
  const keys = splitKeyLines(form.key)
  if (id === undefined) body.key = keys.join('\n')
  else {
    body.id = id
    if (keys.length) {
      body.key = keys.join('\n')
      if (form.appendKeys) body.key_mode = 'append'
    }
  }
  return body
}

function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2)
  } catch {
    return text
  }
}

/** What the instance knows of models (`GET /api/pricing/models`): priced ones and ones only served. */
interface KnownModels {
  items: readonly { model: string; priced: boolean }[]
  unpriced_models: readonly string[]
}

/**
 * Suggestions for a Custom (OpenAI-compatible) channel, whose upstream could serve anything: the instance's
 * priced models first (a request for them is answered and billed), then the type's common ones, then models the
 * instance serves without a price.
 */
export function customSuggestions(typeModels: readonly string[], known: KnownModels | undefined): string[] {
  if (!known) return [...typeModels]
  const priced = known.items.filter((item) => item.priced).map((item) => item.model)
  const unpriced = [...known.items.filter((item) => !item.priced).map((item) => item.model), ...known.unpriced_models]
  return mergeNames(mergeNames(priced, typeModels), unpriced)
}
