import { LogType, RedemptionStatus, type RedemptionRow, type UserRow } from '../../db/repos'
import type { AppDeps } from '../../deps'
import { BadRequestError, ConflictError, NotFoundError } from '../../errors'
import { sha256 } from '../../crypto/sha256'
import { generateKeyBody } from '../../services/tokens/key'
import type { CreateRedemptionInput, UpdateRedemptionInput } from './schemas'

const CODE_LENGTH = 32
const now = () => Math.floor(Date.now() / 1000)

/** A new code: 32 letters and digits from the CSPRNG (about 190 bits). */
function newCode(): string {
  return generateKeyBody().slice(0, CODE_LENGTH)
}

const hint = (code: string) => code.slice(0, 4) + code.slice(-4)

/** Create `count` codes worth `quota` each; the codes themselves are returned only here. */
export async function createRedemptions(deps: AppDeps, admin: UserRow, input: CreateRedemptionInput): Promise<{ rows: RedemptionRow[]; keys: string[] }> {
  if (input.expired_time && input.expired_time <= now()) throw new BadRequestError('expired_time must be 0 (never) or a time in the future', 'expired_time')
  const keys = Array.from({ length: input.count ?? 1 }, newCode)
  const rows = await deps.repos.redemptions.insertMany(
    keys.map((key) => ({ userId: admin.id, name: input.name.trim(), keyHash: sha256(key), keyHint: hint(key), quota: input.quota, expiredTime: input.expired_time ?? 0 })),
  )
  return { rows, keys }
}

export async function findRedemption(deps: AppDeps, id: number): Promise<RedemptionRow> {
  const row = await deps.repos.redemptions.findById(id)
  if (!row) throw new NotFoundError(`no redemption code with id ${id}`)
  return row
}

export async function updateRedemption(deps: AppDeps, input: UpdateRedemptionInput): Promise<RedemptionRow> {
  const row = await findRedemption(deps, input.id)
  if (row.status === RedemptionStatus.used) throw new ConflictError('this code was already redeemed and cannot be changed')
  if (input.expired_time && input.expired_time !== row.expiredTime && input.expired_time <= now()) {
    throw new BadRequestError('expired_time must be 0 (never) or a time in the future', 'expired_time')
  }
  const patch = { name: input.name?.trim(), quota: input.quota, status: input.status, expiredTime: input.expired_time }
  const defined = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined))
  return (await deps.repos.redemptions.update(row.id, defined)) ?? row
}

export async function deleteRedemption(deps: AppDeps, id: number): Promise<void> {
  if (!(await deps.repos.redemptions.delete(id))) throw new NotFoundError(`no redemption code with id ${id}`)
}

export const deleteInvalidRedemptions = (deps: AppDeps): Promise<number> => deps.repos.redemptions.deleteInvalid(now())

/**
 * Redeem a code for the user: its quota is added and a top-up log row written in the same transaction.
 * Of simultaneous redemptions of one code exactly one succeeds.
 */
export async function redeem(deps: AppDeps, user: UserRow, code: string, context: { ip: string; requestId: string }): Promise<{ quota: number; balance: number }> {
  const at = now()
  const row = await deps.repos.redemptions.redeem(sha256(code.trim()), user.id, at, (r) => ({
    createdAt: at,
    type: LogType.topup,
    userId: user.id,
    username: user.username,
    quota: r.quota,
    content: `redeemed code #${r.id} (${r.name}) for ${r.quota} quota`,
    ip: context.ip,
    requestId: context.requestId,
    other: JSON.stringify({ redemption_id: r.id }),
  }))
  if (!row) throw new BadRequestError('this code does not exist, was already used, is disabled or has expired', 'key')
  deps.repos.users.forget(user.id)
  return { quota: row.quota, balance: (await deps.repos.users.findById(user.id))?.quota ?? 0 }
}
