import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server'
import type { PasskeyRow, SecondFactorRepo } from '../../db/repos/second-factors'
import { putChallenge, takeChallenge } from '../twofa/challenges'
import { factorError } from '../twofa/errors'
import type { RelyingParty } from './relying-party'

// the WebAuthn library is loaded on first use: an instance whose users have no passkeys never pays its memory
let library: Promise<typeof import('@simplewebauthn/server')> | undefined
const webauthn = () => (library ??= import('@simplewebauthn/server'))

/** A WebAuthn ceremony has this long between begin and finish. */
const CHALLENGE_SECONDS = 300
const MAX_PASSKEYS = 20

export const passkeyFailed = () => factorError(400, 'passkey_invalid', 'the passkey could not be verified: try again')

type Transports = NonNullable<RegistrationResponseJSON['response']['transports']>
const transportsOf = (row: PasskeyRow) => JSON.parse(row.transports) as Transports
const nowSeconds = (nowMs: number) => Math.floor(nowMs / 1000)

/** The user handle new-api gives its passkeys (the user id as text), so imported passkeys keep signing in. */
const userHandle = (userId: number) => new TextEncoder().encode(String(userId))

export async function beginRegistration(repo: SecondFactorRepo, user: { id: number; username: string; displayName: string }, rp: RelyingParty, nowMs: number) {
  const existing = await repo.passkeys(user.id)
  if (existing.length >= MAX_PASSKEYS) throw factorError(409, 'passkey_limit', `at most ${MAX_PASSKEYS} passkeys per user`)
  const options = await (await webauthn()).generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.rpID,
    userName: user.username,
    userDisplayName: user.displayName || user.username,
    userID: userHandle(user.id),
    attestationType: 'none',
    excludeCredentials: existing.map((row) => ({ id: row.credentialId, transports: transportsOf(row) })),
    // discoverable: the passkey signs in without a username
    authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
  })
  await putChallenge(repo, { purpose: 'pk_register', userId: user.id, payload: {}, seconds: CHALLENGE_SECONDS, nowMs, token: options.challenge })
  return options
}

/** The challenge in the response must be one this user began, unexpired, and it is spent by this check. */
const challengeOf = (repo: SecondFactorRepo, purpose: string, userId: number | null, nowMs: number) => async (challenge: string) => {
  const taken = await takeChallenge(repo, challenge, purpose, nowMs)
  return taken !== undefined && (userId === null || taken.userId === userId)
}

export async function finishRegistration(repo: SecondFactorRepo, userId: number, rp: RelyingParty, response: RegistrationResponseJSON, name: string, nowMs: number) {
  const verified = await (await webauthn()).verifyRegistrationResponse({
    response,
    expectedChallenge: challengeOf(repo, 'pk_register', userId, nowMs),
    expectedOrigin: rp.origin,
    expectedRPID: rp.rpID,
    requireUserVerification: false,
  }).catch(() => undefined)
  if (!verified?.verified || !verified.registrationInfo) throw passkeyFailed()
  const { credential, credentialBackedUp } = verified.registrationInfo
  if (await repo.passkeyByCredentialId(credential.id)) throw factorError(409, 'passkey_exists', 'this passkey is already registered')
  return repo.insertPasskey({
    userId,
    credentialId: credential.id,
    publicKey: Buffer.from(credential.publicKey).toString('base64url'),
    counter: credential.counter,
    transports: JSON.stringify(credential.transports ?? response.response.transports ?? []),
    backedUp: credentialBackedUp,
    name: name.slice(0, 64),
    createdAt: nowSeconds(nowMs),
  })
}

/** Options for an assertion: any discoverable passkey of this site (sign-in), or one of this user's (verification). */
export async function beginAssertion(repo: SecondFactorRepo, rp: RelyingParty, purpose: 'pk_login' | 'pk_verify', user: { id: number } | null, nowMs: number) {
  const mine = user ? await repo.passkeys(user.id) : []
  if (user && mine.length === 0) throw factorError(400, 'passkey_none', 'this user has no passkey')
  const options = await (await webauthn()).generateAuthenticationOptions({
    rpID: rp.rpID,
    userVerification: 'preferred',
    allowCredentials: mine.map((row) => ({ id: row.credentialId, transports: transportsOf(row) })),
  })
  await putChallenge(repo, { purpose, userId: user?.id ?? null, payload: {}, seconds: CHALLENGE_SECONDS, nowMs, token: options.challenge })
  return options
}

/**
 * Check an assertion against the stored public key and counter (a cloned authenticator's counter going back is
 * refused by the library), spend the challenge, and store the new counter. `userId`: the passkey must be theirs.
 */
export async function finishAssertion(repo: SecondFactorRepo, rp: RelyingParty, purpose: 'pk_login' | 'pk_verify', response: AuthenticationResponseJSON, userId: number | null, nowMs: number) {
  const row = await repo.passkeyByCredentialId(response.id)
  if (!row || (userId !== null && row.userId !== userId)) throw passkeyFailed()
  const verified = await (await webauthn()).verifyAuthenticationResponse({
    response,
    expectedChallenge: challengeOf(repo, purpose, userId, nowMs),
    expectedOrigin: rp.origin,
    expectedRPID: rp.rpID,
    credential: { id: row.credentialId, publicKey: new Uint8Array(Buffer.from(row.publicKey, 'base64url')), counter: row.counter, transports: transportsOf(row) },
    requireUserVerification: false,
  }).catch(() => undefined)
  if (!verified?.verified) throw passkeyFailed()
  await repo.touchPasskey(row.id, verified.authenticationInfo.newCounter, nowSeconds(nowMs))
  return row
}

/** new-api's `GET /api/user/passkey` data, with the list a console needs to remove one. */
export async function passkeyStatus(repo: SecondFactorRepo, userId: number) {
  const rows = await repo.passkeys(userId)
  const lastUsed = Math.max(0, ...rows.map((row) => row.lastUsedAt))
  return {
    enabled: rows.length > 0,
    last_used_at: lastUsed || null,
    passkeys: rows.map((row) => ({ id: row.id, name: row.name, backed_up: row.backedUp, created_at: row.createdAt, last_used_at: row.lastUsedAt || null })),
  }
}
