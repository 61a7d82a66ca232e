import type { UserRow } from '../../db/repos'
import type { AppDeps } from '../../deps'
import { BadRequestError, ConflictError } from '../../errors'
import { Role } from '../../db/repos/user-roles'
import { hashPassword } from '../users/credentials'
import { ROOT_START_QUOTA } from './bootstrap'

export interface SetupState {
  status: boolean
  root_init: boolean
}

/** Setup is done once a root user exists (from ROOT_PASSWORD at first start or from POST /api/setup). */
export async function setupState(deps: AppDeps): Promise<SetupState> {
  return { status: (await deps.repos.users.count()) > 0, root_init: await deps.repos.users.rootExists(Role.root) }
}

/** Create the root user once; concurrent or later calls are refused by the repo's guarded insert. */
export async function createRoot(
  deps: AppDeps,
  input: { username: string; password: string; confirmPassword: string },
  /** the setup code's check (code-gate.ts): runs once setup is known to be pending */
  allowed: () => void = () => {},
): Promise<UserRow> {
  if ((await setupState(deps)).status) throw new ConflictError('setup is already done: a root user exists')
  allowed()
  if (input.password !== input.confirmPassword) {
    throw new BadRequestError('field "confirmPassword": the two passwords do not match', 'confirmPassword')
  }
  const row = await deps.repos.users.insertFirst({
    username: input.username,
    password: await hashPassword(input.password),
    displayName: 'Root',
    role: Role.root,
    quota: ROOT_START_QUOTA,
  })
  if (!row) throw new ConflictError('setup is already done: a root user exists')
  console.log(`created root user "${row.username}" through /api/setup`)
  return row
}
