import { createHmac } from 'node:crypto'
import { createSecretBox, type SecretBox } from '../../crypto/secret-box'
import type { SecondFactorRepo } from '../../db/repos/second-factors'
import type { AppDeps } from '../../deps'

/** What the second-factor services use: the repository, the secret box for TOTP secrets, the backup codes' hash key. */
export interface FactorDeps {
  factors: SecondFactorRepo
  box: SecretBox
  codeKey: string
}

const built = new WeakMap<AppDeps, FactorDeps>()

export function factorDeps(deps: Pick<AppDeps, 'repos' | 'secrets'> & object): FactorDeps {
  let found = built.get(deps as AppDeps)
  if (!found) {
    // a key of its own, derived: the crypto secret itself is only ever used through HKDF (secret-box) or here
    const codeKey = createHmac('sha256', deps.secrets.crypto).update('tollgate backup codes v1').digest('hex')
    found = { factors: deps.repos.secondFactors, box: createSecretBox(deps.secrets.crypto), codeKey }
    built.set(deps as AppDeps, found)
  }
  return found
}
