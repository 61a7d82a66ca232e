/**
 * Keys stay where they were sent. The console shows a channel's key masked, so an admin who could point the stored
 * key at a server of their own (a new base_url, another type, a region or account that moves the address) and
 * press "test" would read it there. An edit that changes where the keys go must therefore carry the keys, replacing
 * the stored ones; only root may move stored keys.
 */
import type { ChannelPatch, ChannelRow } from '../../db/repos/channels'
import { ForbiddenError } from '../../errors'
import { providerFor } from '../../providers/registry'

type Where = Pick<ChannelRow, 'type' | 'baseUrl' | 'other'>

/** What decides where a channel's keys are sent: its type, base URL, and `other` when the type puts it in the address. */
function keyDestination(channel: Where): string {
  const addressed = providerFor(channel.type)?.otherField?.addressed === true
  return JSON.stringify([channel.type, channel.baseUrl, addressed ? channel.other : ''])
}

/** The fields of a patch that moved the keys, for the message. */
function movedFields(current: Where, patch: ChannelPatch): string[] {
  const fields: string[] = []
  if (patch.type !== undefined && patch.type !== current.type) fields.push('type')
  if (patch.baseUrl !== undefined && patch.baseUrl !== current.baseUrl) fields.push('base_url')
  if (patch.other !== undefined && patch.other !== current.other) fields.push('other')
  return fields
}

/**
 * Throws 403 when `patch` changes where the stored keys go and the edit does not replace them. `replacesKeys`: the
 * edit carries keys that take the stored ones' place (not `key_mode: append`, which would send the old ones too).
 */
export function assertKeysStay(current: ChannelRow, patch: ChannelPatch, replacesKeys: boolean, mayMoveKeys: boolean): void {
  if (replacesKeys || mayMoveKeys) return
  const after = { type: patch.type ?? current.type, baseUrl: patch.baseUrl ?? current.baseUrl, other: patch.other ?? current.other }
  if (keyDestination(after) === keyDestination(current)) return
  const fields = movedFields(current, patch).join(', ') || 'this change'
  throw new ForbiddenError(
    `${fields} changes where this channel's key is sent: enter the key again (it replaces the stored one) to save it; only root may move a stored key`,
    'key_required',
  )
}
