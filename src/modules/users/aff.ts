import type { UserRow } from '../../db/repos'
import { isUniqueViolation } from '../../db/repos'
import type { AppDeps } from '../../deps'
import { BadRequestError } from '../../errors'

const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789'
const CODE_LENGTH = 6

function randomCode(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(CODE_LENGTH))
  return Array.from(bytes, (b) => CODE_ALPHABET[b % CODE_ALPHABET.length]).join('')
}

/** The user's invite code, created on first use; a collision with another user's code just draws again. */
export async function ensureAffCode(deps: AppDeps, user: UserRow): Promise<string> {
  for (let attempt = 0; attempt < 10; attempt++) {
    const current = (await deps.repos.users.findById(user.id))?.affCode
    if (current) return current
    try {
      const row = await deps.repos.users.setAffCodeIfMissing(user.id, randomCode())
      if (row?.affCode) return row.affCode
    } catch (error) {
      if (!isUniqueViolation(error)) throw error
    }
  }
  throw new Error('could not draw a free invite code')
}

export interface AffTransfer {
  quota_moved: number
  quota: number
  aff_quota: number
}

/**
 * Move earned invitation quota into the usable balance. The minimum is one unit (QuotaPerUnit, 500,000
 * by default, as in new-api); the repo's guarded UPDATE makes parallel transfers unable to overdraw.
 */
export async function transferAffQuota(deps: AppDeps, user: UserRow, quota: number): Promise<AffTransfer> {
  const minimum = deps.options.get<number>('QuotaPerUnit')
  if (quota < minimum) throw new BadRequestError(`field "quota": must be at least ${minimum}`, 'quota')
  const row = await deps.repos.users.transferAffQuota(user.id, quota)
  if (!row) {
    const available = (await deps.repos.users.findById(user.id))?.affQuota ?? 0
    throw new BadRequestError(`field "quota": only ${available} invitation quota is available`, 'quota')
  }
  return { quota_moved: quota, quota: row.quota, aff_quota: row.affQuota }
}
