import { ChannelStatus, type ChannelFilter, type ChannelPatch, type ChannelRow } from '../../db/repos/channels'
import type { AppDeps } from '../../deps'
import { isSealedKey, openSealedKey } from '../../codex/sign-in-state'
import { createSecretBox } from '../../crypto/secret-box'
import { BadRequestError, NotFoundError } from '../../errors'
import type { NewChannelInput } from '../../relay/routing/channel-store'
import { splitKeys } from '../../relay/routing/channel'
import { assertKeyTargetsAllowed, assertTargetAllowed, channelPatch, checkKeys, joinList, mappingText, normalizeKeys, providerOrThrow } from './input'
import { assertKeysStay } from './key-destination'
import type { ChannelCreate, ChannelEdit, CreateBody, ListQuery, TagEdit } from './schemas'
import { toChannelView, type ChannelView } from './view'

export function viewOf(deps: AppDeps, row: ChannelRow): ChannelView {
  return toChannelView(row, deps.routing.channels.get(row.id)?.keys ?? [])
}

/** The list query as a repo filter: new-api's status words mapped, empty model and keyword meaning none. */
export function channelFilterOf(query: ListQuery): ChannelFilter {
  const { type, status, tag, group } = query
  const filter: ChannelFilter = { type, tag, group, model: query.model?.trim() || undefined, keyword: query.keyword }
  if (status === 'enabled') filter.status = ChannelStatus.enabled
  else if (status === 'disabled') filter.disabled = true
  else if (typeof status === 'number') filter.status = status
  return filter
}

export async function findChannel(deps: AppDeps, id: number): Promise<ChannelRow> {
  const row = await deps.repos.channels.findById(id)
  if (!row) throw new NotFoundError(`channel ${id} not found`)
  return row
}

/**
 * Create from the channel object or new-api's `{mode, channel}` wrapper. `single` and
 * `multi_to_single` make one channel holding every key line (used in turn); `batch` makes one
 * channel per key line.
 */
export async function createChannels(deps: AppDeps, body: CreateBody): Promise<ChannelView[]> {
  const { mode = 'single', channel: wrapped, ...bare } = body
  const channel = wrapped ?? bareChannel(bare)
  const base = newChannel(channel)
  base.keyText = await signInOpened(deps, base.keyText)
  const provider = providerOrThrow(base.type)
  await assertTargetAllowed(deps.outbound, base.baseUrl ?? '', provider)
  await checkKeys(provider, base.keyText)
  await assertKeyTargetsAllowed(deps.outbound, provider, base.keyText)
  // a service account JSON key is one key, whatever its lines
  const keys = splitKeys(base.keyText)
  const inputs = mode === 'batch' && keys.length > 1 ? keys.map((key) => ({ ...base, keyText: key })) : [base]
  const created = await deps.routing.channels.create(inputs)
  return Promise.all(created.map(async (c) => viewOf(deps, await findChannel(deps, c.id))))
}

function bareChannel(body: Omit<CreateBody, 'mode' | 'channel'>): ChannelCreate {
  const { type, name } = body
  if (type === undefined) throw new BadRequestError('type is required', 'type')
  if (name === undefined) throw new BadRequestError('name is required', 'name')
  return { ...body, type, name }
}

function newChannel(input: ChannelCreate): NewChannelInput {
  const { patch, provider } = channelPatch(input)
  const keyText = normalizeKeys(input.key ?? '')
  if (!keyText && provider.keyRequired) throw new BadRequestError(`key is required for ${provider.name} channels`, 'key')
  return {
    ...patch,
    type: input.type,
    name: patch.name!,
    group: patch.group ?? 'default',
    keyText,
  }
}

/**
 * Edit by id. An empty or missing key keeps the stored keys; `key_mode: 'append'` adds lines to them. An edit that
 * changes where the keys go must replace them unless `mayMoveKeys` (root): key-destination.ts.
 */
export async function editChannel(deps: AppDeps, input: ChannelEdit, mayMoveKeys: boolean): Promise<ChannelView> {
  const current = await findChannel(deps, input.id)
  const { id, key, key_mode, ...fields } = input
  const { patch, provider } = channelPatch(fields, current)
  let keyText: string | undefined = key === undefined ? undefined : normalizeKeys(key) || undefined
  if (keyText !== undefined) keyText = await signInOpened(deps, keyText)
  if (patch.baseUrl !== undefined || patch.type !== undefined) await assertTargetAllowed(deps.outbound, patch.baseUrl ?? current.baseUrl, provider)
  assertKeysStay(current, patch, keyText !== undefined && key_mode !== 'append', mayMoveKeys)
  if (keyText !== undefined) await checkKeys(provider, keyText)
  else if (patch.type !== undefined && patch.type !== current.type) await checkKeys(provider, (deps.routing.channels.get(id)?.keys ?? []).join('\n'))
  if (keyText !== undefined) await assertKeyTargetsAllowed(deps.outbound, provider, keyText)
  if (keyText !== undefined && key_mode === 'append') {
    const stored = deps.routing.channels.get(id)?.keys ?? []
    keyText = normalizeKeys([...stored, keyText].join('\n'))
  }
  const updated = await deps.routing.channels.update(id, patch, keyText)
  if (!updated) throw new NotFoundError(`channel ${id} not found`)
  return viewOf(deps, await findChannel(deps, id))
}

/** A key made by a ChatGPT sign-in before its channel existed (src/codex/sign-in-state.ts): opened here, never shown. */
async function signInOpened(deps: AppDeps, keyText: string): Promise<string> {
  if (!isSealedKey(keyText)) return keyText
  const opened = await openSealedKey(createSecretBox(deps.secrets.crypto), keyText, deps.clock.now())
  if (opened === undefined) throw new BadRequestError('the ChatGPT sign-in in the key has lapsed: sign in again', 'key')
  return opened
}

export async function deleteChannel(deps: AppDeps, id: number): Promise<void> {
  const removed = await deps.routing.channels.remove([id])
  if (removed.length === 0) throw new NotFoundError(`channel ${id} not found`)
}

export async function deleteChannels(deps: AppDeps, ids: number[]): Promise<number> {
  return (await deps.routing.channels.remove([...new Set(ids)])).length
}

export async function tagChannels(deps: AppDeps, ids: number[], tag: string | null | undefined): Promise<number> {
  return (await deps.routing.channels.updateMany([...new Set(ids)], { tag: (tag ?? '').trim() })).length
}

function requireTag(tag: string | null | undefined): string {
  const text = (tag ?? '').trim()
  if (!text) throw new BadRequestError('tag is required', 'tag')
  return text
}

/** Enable (status 1) or disable (status 2) every channel with the tag; returns how many changed. */
export async function setTagStatus(deps: AppDeps, tag: string | null | undefined, enabled: boolean): Promise<number> {
  const status = enabled ? ChannelStatus.enabled : ChannelStatus.manuallyDisabled
  return (await deps.routing.channels.setStatusByTag(requireTag(tag), status)).length
}

/** Edit every channel with the tag: rename the tag, priority, weight, models, groups, model mapping. */
export async function editTag(deps: AppDeps, input: TagEdit): Promise<number> {
  const tag = requireTag(input.tag)
  const patch: ChannelPatch = {}
  if (input.new_tag !== undefined && input.new_tag !== null) patch.tag = input.new_tag.trim()
  if (input.priority !== undefined && input.priority !== null) patch.priority = input.priority
  if (input.weight !== undefined && input.weight !== null) patch.weight = input.weight
  if (input.models !== undefined && input.models !== null) patch.models = joinList(input.models)
  if (input.groups !== undefined && input.groups !== null) patch.group = joinList(input.groups) || 'default'
  if (input.model_mapping !== undefined && input.model_mapping !== null) patch.modelMapping = mappingText(input.model_mapping)
  if (Object.keys(patch).length === 0) throw new BadRequestError('nothing to change: send new_tag, priority, weight, models, groups or model_mapping')
  return (await deps.routing.channels.updateByTag(tag, patch)).length
}

/**
 * new-api's copy: the channel with its keys under `name + suffix`, test results cleared, used quota from 0 unless
 * `resetBalance` is false. The keys never leave the server: the copy is made from the cached, decrypted ones.
 */
export async function copyChannel(deps: AppDeps, id: number, suffix: string, resetBalance: boolean): Promise<{ id: number }> {
  const { id: _, key: __, createdTime: ___, ...row } = await findChannel(deps, id)
  await deps.routing.channels.ready
  const keyText = (deps.routing.channels.get(id)?.keys ?? []).join('\n')
  const name = `${row.name}${suffix}`.slice(0, 200)
  const [created] = await deps.routing.channels.create([
    { ...row, name, keyText, testTime: 0, responseTime: 0, testError: '', usedQuota: resetBalance ? 0 : row.usedQuota },
  ])
  return { id: created!.id }
}
