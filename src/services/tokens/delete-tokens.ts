import type { TokenStore } from './token-store'
import type { UserRow } from '../../db/repos'
import { NotFoundError } from '../../errors'

export async function deleteToken(deps: TokenStore, input: { user: UserRow; id: number }): Promise<void> {
  if ((await deps.repos.tokens.deleteOwned([input.id], input.user.id)) === 0) throw new NotFoundError(`token ${input.id} not found`)
}

/** Delete several of the caller's tokens; ids that are not theirs are skipped. Returns how many went. */
export function deleteTokens(deps: TokenStore, input: { user: UserRow; ids: number[] }): Promise<number> {
  return deps.repos.tokens.deleteOwned([...new Set(input.ids)], input.user.id)
}
