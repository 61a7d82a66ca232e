import type { TokenStore } from './token-store'
import type { TokenRow, UserRow } from '../../db/repos'
import { NotFoundError } from '../../errors'
import type { PageWindow } from '../../plugins/paging'

/** Another user's token is reported exactly like a missing one, so ids reveal nothing. */
export async function ownedToken(deps: TokenStore, user: UserRow, id: number): Promise<TokenRow> {
  const token = await deps.repos.tokens.findOwned(id, user.id)
  if (!token) throw new NotFoundError(`token ${id} not found`)
  return token
}

export function listTokens(deps: TokenStore, input: { user: UserRow; window: PageWindow; keyword?: string }) {
  return deps.repos.tokens.listOwned(input.user.id, input.window.offset, input.window.pageSize, input.keyword?.trim() || undefined)
}
