import type { Env } from '../../src/config'
import { startRelayEnv, type RelayEnv } from '../helpers/relay-env'

/** tests/helpers/relay-env's gateway (one user, one unlimited key, a fake upstream), started with `env`. */
export function startHardeningEnv(env: Env = {}): Promise<RelayEnv> {
  return startRelayEnv(env)
}
