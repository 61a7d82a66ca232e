import { splitList, type ChannelPatch, type ChannelRow } from '../../db/repos/channels'
import { BadRequestError, GatewayError } from '../../errors'
import { providerFor, supportedTypes } from '../../providers/registry'
import type { Provider } from '../../providers/types'
import type { Outbound } from '../../outbound/fetch'
import { normalizeBaseUrl } from '../../providers/url'
import { planByWord } from '../../providers/coding-plans'
import { splitKeys } from '../../relay/routing/channel'
import { parseModelMapping } from '../../relay/routing/model-mapping'
import type { ChannelCreate, ChannelEdit } from './schemas'
import { checkedSetting, overridePatch } from './override-input'
import { editedSettings } from './upstream-settings'

type Fields = Partial<Omit<ChannelCreate, 'key'>> | Omit<ChannelEdit, 'id' | 'key' | 'key_mode'>

export function providerOrThrow(type: number): Provider {
  const provider = providerFor(type)
  if (!provider) {
    throw new BadRequestError(`type ${type} is not a supported channel type (supported: ${supportedTypes().join(', ')})`, 'type')
  }
  return provider
}

/** `a, b` or `['a','b']` → `a,b`, trimmed and deduplicated. */
export function joinList(value: string | string[]): string {
  return splitList(Array.isArray(value) ? value.join(',') : value).join(',')
}

/** Each key as the type takes it (Bedrock's format, Vertex's service account): a 400 naming `key` for the first it cannot use. */
export async function checkKeys(provider: Provider, keyText: string): Promise<void> {
  if (!provider.checkKey) return
  const keys = splitKeys(keyText)
  for (const [i, key] of keys.entries()) {
    try {
      await provider.checkKey(key)
    } catch (error) {
      if (!(error instanceof GatewayError) || error.status !== 400) throw error
      // the message names the field (and which key of a pool), never the key itself
      throw new BadRequestError(`${keys.length > 1 ? `key ${i + 1} of ${keys.length}` : 'key'}: ${error.message}`, 'key')
    }
  }
}

/** Keys as stored: one per line, trimmed, blank lines dropped. */
export function normalizeKeys(text: string): string {
  return splitKeys(text).join('\n')
}

/**
 * Check the channel fields that were sent and turn them into a column patch. `current` is the stored
 * row on edit (its type and base URL count when the edit leaves them out). Every failure names its field.
 */
export function channelPatch(input: Fields, current?: ChannelRow): { patch: ChannelPatch; provider: Provider } {
  const type = input.type ?? current?.type
  if (type === undefined) throw new BadRequestError('type is required', 'type')
  const provider = providerOrThrow(type)
  const patch: ChannelPatch = {}
  if (input.type !== undefined) patch.type = input.type
  if (input.name !== undefined) {
    patch.name = input.name.trim()
    if (!patch.name) throw new BadRequestError('name must not be empty', 'name')
  }
  // new-api's word for a Coding Plan (`kimi-coding-plan`) is stored as the plan's base URL
  if (input.base_url !== undefined) patch.baseUrl = planByWord(provider, input.base_url ?? '')?.baseUrl ?? normalizeBaseUrl(input.base_url ?? '')
  const baseUrl = patch.baseUrl ?? current?.baseUrl ?? ''
  if (!baseUrl && !provider.defaultBaseUrl && !provider.connector) throw new BadRequestError(`base_url is required for ${provider.name} channels`, 'base_url')
  if (input.models !== undefined) patch.models = joinList(input.models)
  if (input.group !== undefined) patch.group = joinList(input.group) || 'default'
  if (input.priority !== undefined) patch.priority = input.priority ?? 0
  if (input.weight !== undefined && input.weight !== null) patch.weight = input.weight
  if (input.tag !== undefined) patch.tag = (input.tag ?? '').trim()
  if (input.status !== undefined) patch.status = input.status
  if (input.model_mapping !== undefined) patch.modelMapping = mappingText(input.model_mapping)
  if (input.test_model !== undefined) patch.testModel = (input.test_model ?? '').trim()
  if (input.auto_ban !== undefined) patch.autoBan = input.auto_ban === true || input.auto_ban === 1 ? 1 : 0
  if (input.other !== undefined) patch.other = (input.other ?? '').trim()
  // Cloudflare: a base URL with the account id in it becomes the root plus `other`, as new-api stores it
  const folded = patch.baseUrl ? provider.foldBaseUrl?.(patch.baseUrl) : undefined
  if (folded) {
    patch.baseUrl = folded.baseUrl
    patch.other = folded.other
  }
  if (provider.otherField?.required && !(patch.other ?? current?.other ?? '')) {
    throw new BadRequestError(`other is required for ${provider.name} channels: ${provider.otherField.meaning}`, 'other')
  }
  if (patch.other !== undefined || patch.type !== undefined) provider.checkOther?.(patch.other ?? current?.other ?? '')
  if (input.setting !== undefined) patch.setting = settingText(input.setting, current?.setting ?? '')
  if (provider.checkSetting && (patch.setting !== undefined || patch.type !== undefined || !current)) provider.checkSetting(settingObject(patch.setting ?? current?.setting ?? ''))
  if (input.settings !== undefined) patch.settings = editedSettings(JSON.parse(jsonObjectText(input.settings, 'settings') || '{}') as Record<string, unknown>, current?.settings ?? '')
  overridePatch(input, patch)
  return { patch, provider }
}

/**
 * SSRF on save: the base URL a channel will use (its own, else the provider's default) may not be a link-local or
 * cloud metadata address, however written, nor resolve to one now; private and loopback ones only while
 * `ChannelPrivateNetworksAllowed` is on. A host that does not resolve is accepted (it may exist later): every
 * connection is checked again (`src/outbound`).
 */
export async function assertTargetAllowed(outbound: Pick<Outbound, 'refusalFor'>, baseUrl: string, provider: Provider): Promise<void> {
  const url = baseUrl || provider.defaultBaseUrl
  if (!url) return
  const why = await outbound.refusalFor(url)
  if (why) throw new BadRequestError(`base_url refused: ${why}`, 'base_url')
}

/** The same for the addresses a key names (a service account's token_uri): a 400 naming `key`, never quoting it. */
export async function assertKeyTargetsAllowed(outbound: Pick<Outbound, 'refusalFor'>, provider: Provider, keyText: string): Promise<void> {
  if (!provider.keyTargets) return
  for (const key of splitKeys(keyText)) {
    for (const url of provider.keyTargets(key)) {
      const why = await outbound.refusalFor(url)
      if (why) throw new BadRequestError(`key refused: ${why}`, 'key')
    }
  }
}

export function mappingText(value: unknown): string {
  const mapping = parseModelMapping(value)
  return Object.keys(mapping).length ? JSON.stringify(mapping) : ''
}

function settingObject(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text || '{}')
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {}
  } catch {
    return {}
  }
}

/** `setting` with its override fields checked (a proxy sent back masked keeps the stored one). */
function settingText(value: unknown, stored: string): string {
  const text = jsonObjectText(value, 'setting')
  return text ? JSON.stringify(checkedSetting(JSON.parse(text) as Record<string, unknown>, stored ? (JSON.parse(stored) as Record<string, unknown>) : {})) : ''
}

function jsonObjectText(value: unknown, field: string): string {
  let parsed = value
  if (value === null || value === '') return ''
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value)
    } catch {
      throw new BadRequestError(`${field} is not valid JSON`, field)
    }
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new BadRequestError(`${field} must be a JSON object`, field)
  return Object.keys(parsed).length ? JSON.stringify(parsed) : ''
}
