import type { UserRow } from '../../../src/db/repos'
import { Role } from '../../../src/db/repos/user-roles'
import { sha256 } from '../../../src/crypto/sha256'
import type { TestApp } from '../../helpers/test-app'

export interface TestUser {
  user: UserRow
  headers: Record<string, string>
}

/** A user who authenticates with a management access token (the session macro's Bearer path). */
export async function makeUser(app: TestApp, username: string, extra: { role?: number; group?: string } = {}): Promise<TestUser> {
  const user = await app.deps.repos.users.insert({
    username,
    password: Bun.password.hashSync('password-123', { algorithm: 'bcrypt', cost: 4 }),
    role: extra.role ?? Role.user,
    group: extra.group ?? 'default',
  })
  const secret = `access-${username}-${crypto.randomUUID()}`
  await app.deps.repos.users.update(user.id, { accessToken: sha256(secret) })
  return { user, headers: { authorization: `Bearer ${secret}` } }
}
