import type { AppDeps } from '../../deps'
import { Role } from '../../db/repos/user-roles'

export const ROOT_START_QUOTA = 100_000_000

/** First start with an empty database and ROOT_PASSWORD set: create root. Without it, setup mode waits for /api/setup. */
export async function bootstrapRoot(deps: AppDeps): Promise<void> {
  const { rootPassword, rootUsername } = deps.config
  if (!rootPassword || (await deps.repos.users.count()) > 0) return
  if (rootPassword.length < 8 || rootPassword.length > 64) {
    throw new Error('ROOT_PASSWORD must be 8 to 64 characters')
  }
  // insertFirst, not insert: nodes starting together on one PostgreSQL database all saw it empty; one creates root
  const created = await deps.repos.users.insertFirst({
    username: rootUsername,
    password: Bun.password.hashSync(rootPassword, 'argon2id'),
    displayName: 'Root',
    role: Role.root,
    quota: ROOT_START_QUOTA,
  })
  if (created) console.log(`created root user "${rootUsername}" from ROOT_PASSWORD`)
}
