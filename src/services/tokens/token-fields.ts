import type { TokenRow, UserRow } from '../../db/repos'
import type { TokenPatch } from '../../db/repos/tokens'
import { BadRequestError } from '../../errors'
import { normalizeIpList } from './ip-list'
import { mayUseGroup, NEVER_EXPIRES } from './token-status'

/** The editable fields as clients send them (new-api names); every one optional here. */
export interface TokenFieldsInput {
  name?: string
  remain_quota?: number
  unlimited_quota?: boolean
  expired_time?: number
  model_limits_enabled?: boolean
  model_limits?: string
  allow_ips?: string
  group?: string
}

/**
 * Check and normalize fields into a repo patch. The schema already bounds types and lengths; this adds the
 * rules that need the clock, the user or parsing. On edits (`current` given) a value equal to the stored one
 * is accepted as is, so re-sending a whole token (as the new-api UI does) never fails on untouched fields.
 *
 * Group rule: '' means "my group" (resolved at use time). Any other value must be the user's own group;
 * admins and root may put a token in any group (there is no group registry yet to check against).
 */
export function tokenPatchFrom(user: UserRow, input: TokenFieldsInput, now: number, current?: TokenRow): TokenPatch {
  const patch: TokenPatch = {}
  if (input.name !== undefined) patch.name = input.name.trim()
  if (input.remain_quota !== undefined) patch.remainQuota = input.remain_quota
  if (input.unlimited_quota !== undefined) patch.unlimitedQuota = input.unlimited_quota
  if (input.model_limits_enabled !== undefined) patch.modelLimitsEnabled = input.model_limits_enabled

  if (input.expired_time !== undefined) {
    const unchanged = current?.expiredTime === input.expired_time
    if (!unchanged && input.expired_time !== NEVER_EXPIRES && input.expired_time <= now) {
      throw new BadRequestError('expired_time must be -1 (never) or a unix time in seconds in the future', 'expired_time')
    }
    patch.expiredTime = input.expired_time
  }

  if (input.model_limits !== undefined) {
    const models = [...new Set(input.model_limits.split(',').map((model) => model.trim()).filter(Boolean))]
    const bad = models.find((model) => /\s/.test(model) || model.length > 200)
    if (bad !== undefined) throw new BadRequestError(`model_limits: "${bad}" is not a model name`, 'model_limits')
    patch.modelLimits = models.join(',')
  }

  if (input.allow_ips !== undefined) {
    const result = normalizeIpList(input.allow_ips)
    if (!result.ok) throw new BadRequestError(`allow_ips: "${result.bad}" is not an IP address or CIDR range`, 'allow_ips')
    patch.allowIps = result.value
  }

  if (input.group !== undefined) {
    const group = input.group.trim()
    // an edit may re-send the stored group unchanged; relay auth refuses it if the owner may no longer use it
    const allowed = mayUseGroup(user, group) || group === current?.group
    if (!allowed) throw new BadRequestError(`group: you may only use your own group "${user.group}" (or '' for it)`, 'group')
    patch.group = group
  }
  return patch
}
