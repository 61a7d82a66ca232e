import type { TokenRow } from '../../db/repos'

const lists = new WeakMap<TokenRow, Set<string>>()

/** Whether the token may call this model: any model unless its model limits are on, then only the listed ones. */
export function tokenAllowsModel(token: TokenRow, model: string): boolean {
  if (!token.modelLimitsEnabled) return true
  let allowed = lists.get(token)
  if (!allowed) lists.set(token, (allowed = new Set(token.modelLimits.split(',').map((m) => m.trim()).filter(Boolean))))
  return allowed.has(model)
}
