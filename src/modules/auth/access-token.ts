import type { AppDeps } from '../../deps'
import { sha256 } from '../../crypto/sha256'

/** A new management access token for `Authorization: Bearer`; only its sha-256 is stored, so it is shown once. */
export async function issueAccessToken(deps: AppDeps, userId: number): Promise<string> {
  const token = Buffer.from(crypto.getRandomValues(new Uint8Array(24))).toString('base64url')
  await deps.repos.users.update(userId, { accessToken: sha256(token) })
  return token
}
