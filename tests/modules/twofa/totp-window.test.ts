import { afterAll, beforeAll, expect, test } from 'bun:test'
import { Role, UserStatus } from '../../../src/db/repos/user-roles'
import { factorDeps, type FactorDeps } from '../../../src/modules/twofa/factor-deps'
import { totpStep } from '../../../src/modules/twofa/totp'
import { consumeSecondFactor, enableTwoFactor, regenerateBackupCodes, setupTwoFactor } from '../../../src/modules/twofa/twofa-service'
import { addUser } from '../../helpers/accounts'
import { startTestApp, type TestApp } from '../../helpers/test-app'
import { totpCode } from '../../helpers/totp'

let app: TestApp
let deps: FactorDeps
beforeAll(async () => {
  app = await startTestApp()
  deps = factorDeps(app.deps)
})
afterAll(() => app.stop())

// a fixed clock in the middle of a 30-second step: 1_800_000_000 s is step 60_000_000 exactly
const T0 = 1_800_000_000_000 + 10_000
const codeAt = totpCode

async function enrolled(name: string) {
  const user = await addUser(app, { username: name, role: Role.user, status: UserStatus.enabled })
  const setup = await setupTwoFactor(deps, user, 'Tollgate')
  expect(await enableTwoFactor(deps, user.id, codeAt(setup.secret, T0), T0)).toBe(true)
  return { user, setup }
}

test('a code is valid one step either side of the clock, and not two', async () => {
  const { setup } = await enrolled('window')
  expect(totpStep(setup.secret, codeAt(setup.secret, T0 - 30_000), T0)).toBe(59_999_999)
  expect(totpStep(setup.secret, codeAt(setup.secret, T0 + 30_000), T0)).toBe(60_000_001)
  expect(totpStep(setup.secret, codeAt(setup.secret, T0 + 60_000), T0)).toBeNull()
  expect(totpStep(setup.secret, codeAt(setup.secret, T0 - 60_000), T0)).toBeNull()
  expect(totpStep(setup.secret, '12345', T0)).toBeNull()
})

test('the enabling code is spent; a code is taken once, even later in its window; an older step after a newer one is refused', async () => {
  const { user, setup } = await enrolled('replay')
  // the enabling code, again, 20 seconds later (same step, still in the window): refused
  expect(await consumeSecondFactor(deps, user.id, codeAt(setup.secret, T0), T0 + 20_000)).toBeNull()
  // the next step's code: taken once
  const next = codeAt(setup.secret, T0 + 30_000)
  expect(await consumeSecondFactor(deps, user.id, next, T0 + 30_000)).toBe('totp')
  expect(await consumeSecondFactor(deps, user.id, next, T0 + 45_000)).toBeNull()
  // the previous step's code is still inside the window at T0 + 30 s, but older than the last taken
  expect(await consumeSecondFactor(deps, user.id, codeAt(setup.secret, T0), T0 + 30_000)).toBeNull()
  // once the clock moves on, a new code works
  expect(await consumeSecondFactor(deps, user.id, codeAt(setup.secret, T0 + 90_000), T0 + 90_000)).toBe('totp')
})

test('backup codes: each works once, in any case and spacing; regenerating voids the old ones; stored hashed', async () => {
  const { user, setup } = await enrolled('backup')
  const [first, second] = setup.backup_codes as [string, string]
  expect(setup.backup_codes).toHaveLength(10)
  expect(first).toMatch(/^[A-Z2-9]{5}-[A-Z2-9]{5}$/)
  expect(await consumeSecondFactor(deps, user.id, first.toLowerCase().replace('-', ' '), T0)).toBe('backup_code')
  expect(await consumeSecondFactor(deps, user.id, first, T0)).toBeNull()
  const stored = await app.deps.repos.secondFactors.unusedBackupCodes(user.id)
  expect(stored).toHaveLength(9)
  for (const row of stored) expect(setup.backup_codes.some((code) => row.codeHash.includes(code) || row.codeHash.includes(code.replace('-', '')))).toBe(false)
  // a TOTP-only check (regenerating) refuses a backup code
  expect(await consumeSecondFactor(deps, user.id, second, T0, false)).toBeNull()
  const fresh = await regenerateBackupCodes(deps, user.id)
  expect(await consumeSecondFactor(deps, user.id, second, T0)).toBeNull()
  expect(await consumeSecondFactor(deps, user.id, fresh[0]!, T0)).toBe('backup_code')
})

test('the secret is sealed at rest', async () => {
  const { user, setup } = await enrolled('sealed')
  const row = await app.deps.repos.secondFactors.totp(user.id)
  expect(row!.secret.startsWith('v1:')).toBe(true)
  expect(row!.secret).not.toContain(setup.secret)
  expect(await deps.box.decrypt(row!.secret)).toBe(setup.secret)
})
