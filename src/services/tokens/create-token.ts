import type { TokenStore } from './token-store'
import type { TokenRow, UserRow } from '../../db/repos'
import { generateKeyBody, KEY_PREFIX, keyHash, keyHint } from './key'
import { tokenPatchFrom, type TokenFieldsInput } from './token-fields'
import { nowSeconds, TokenStatus } from './token-status'

export interface CreateTokenInput {
  user: UserRow
  fields: TokenFieldsInput
  now?: number
}

/** Create a token for the user. The full key is returned here and never again: only its hash is stored. */
export async function createToken(deps: TokenStore, input: CreateTokenInput): Promise<{ token: TokenRow; key: string }> {
  const patch = tokenPatchFrom(input.user, input.fields, input.now ?? nowSeconds())
  const body = generateKeyBody()
  const token = await deps.repos.tokens.insert({
    ...patch,
    userId: input.user.id,
    keyHash: keyHash(body),
    keyHint: keyHint(body),
    status: TokenStatus.enabled,
  })
  return { token, key: KEY_PREFIX + body }
}
