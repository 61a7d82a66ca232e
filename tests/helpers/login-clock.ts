import { createLocalCoordination } from '../../src/coord/local'
import { createLocalStore } from '../../src/coord/local-store'
import type { AppDeps } from '../../src/deps'

/**
 * From here on the app's login counters run on a clock that stands still, so a wait (1 s at first) never ends
 * while a slow machine checks a password: a test asserts who is refused, not how fast argon2 runs.
 */
export function stopLoginClock(deps: Pick<AppDeps, 'coord'>): void {
  const frozen = createLocalCoordination({ store: createLocalStore(() => 1_000_000) })
  deps.coord.loginAttempt = frozen.loginAttempt
  deps.coord.loginSucceeded = frozen.loginSucceeded
}
