import type { TokenStore } from './token-store'
import type { TokenRow, UserRow } from '../../db/repos'
import { BadRequestError, NotFoundError } from '../../errors'
import { ownedToken } from './read-tokens'
import { tokenPatchFrom, type TokenFieldsInput } from './token-fields'
import { isExhausted, isExpired, nowSeconds, TokenStatus } from './token-status'

export interface UpdateTokenInput {
  user: UserRow
  id: number
  fields: TokenFieldsInput
  status?: number
  now?: number
}

/**
 * Edit the caller's token: given fields only, plus an optional status change (checked against the edited
 * values, so a new expiry and re-enabling can go in one request). The write is one UPDATE of the given fields;
 * relay auth checks expiry and quota again on every request, whatever status an edit left.
 */
export async function updateToken(deps: TokenStore, input: UpdateTokenInput): Promise<TokenRow> {
  const now = input.now ?? nowSeconds()
  const current = await ownedToken(deps, input.user, input.id)
  const patch = tokenPatchFrom(input.user, input.fields, now, current)
  if (input.status !== undefined && input.status !== current.status) {
    checkStatusChange(input.status, { ...current, ...patch }, now)
    patch.status = input.status
  }
  const updated = await deps.repos.tokens.update(current.id, input.user.id, patch)
  if (!updated) throw new NotFoundError(`token ${input.id} not found`)
  return updated
}

/** `PUT /api/token/?status_only=1`: change the status and nothing else. */
export async function setTokenStatus(deps: TokenStore, input: Omit<UpdateTokenInput, 'fields'>): Promise<TokenRow> {
  if (input.status === undefined) throw new BadRequestError('status: required with status_only', 'status')
  return updateToken(deps, { ...input, fields: {} })
}

function checkStatusChange(status: number, next: TokenRow, now: number): void {
  if (status === TokenStatus.disabled) return
  if (status !== TokenStatus.enabled) {
    throw new BadRequestError('status: only 1 (enabled) or 2 (disabled) can be set; 3 and 4 are set by the gateway', 'status')
  }
  if (isExpired(next, now)) {
    throw new BadRequestError(
      'status: this token has expired and cannot be enabled: set a future expired_time (or -1 for never) first',
      'status',
    )
  }
  if (isExhausted(next)) {
    throw new BadRequestError(
      'status: this token has no quota left and cannot be enabled: raise remain_quota or set unlimited_quota first',
      'status',
    )
  }
}
