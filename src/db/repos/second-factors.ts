/** A user's TOTP record: the secret sealed (secret-box), whether a first good code enabled it, the last step taken. */
interface TwoFactorRow {
  userId: number
  secret: string
  enabled: boolean
  lastStep: number
  createdAt: number
}

interface BackupCodeRow {
  id: number
  userId: number
  codeHash: string
  usedAt: number | null
}

export interface PasskeyRow {
  id: number
  userId: number
  /** base64url */
  credentialId: string
  /** base64url of the COSE public key */
  publicKey: string
  counter: number
  /** JSON array of transports (usb, internal, hybrid, …) */
  transports: string
  backedUp: boolean
  name: string
  createdAt: number
  lastUsedAt: number
}

export type NewPasskey = Omit<PasskeyRow, 'id' | 'createdAt' | 'lastUsedAt'> & { createdAt?: number; lastUsedAt?: number }

interface ChallengeRow {
  id: string
  purpose: string
  userId: number | null
  payload: string
  expiresAt: number
}

/** TOTP secrets, backup codes, passkeys and the short-lived challenges of sign-in; every "use once" is one conditional write. */
export interface SecondFactorRepo {
  totp(userId: number): Promise<TwoFactorRow | undefined>
  /** Replace any record (and its backup codes) by a pending (not enabled) one with these codes. */
  startTotp(userId: number, sealedSecret: string, codeHashes: string[]): Promise<void>
  /** Enable a pending record, taking `step` as used; false when there is none pending. */
  enableTotp(userId: number, step: number): Promise<boolean>
  /** Take `step` if it is later than the last one taken (the code's replay guard); false when it is not. */
  takeStep(userId: number, step: number): Promise<boolean>
  /** Delete the record and its backup codes; false when there was none. */
  deleteTotp(userId: number): Promise<boolean>
  unusedBackupCodes(userId: number): Promise<BackupCodeRow[]>
  /** Mark one code used if it still is not; false when another request took it first. */
  useBackupCode(id: number, at: number): Promise<boolean>
  replaceBackupCodes(userId: number, codeHashes: string[]): Promise<void>

  passkeys(userId: number): Promise<PasskeyRow[]>
  passkeyByCredentialId(credentialId: string): Promise<PasskeyRow | undefined>
  insertPasskey(row: NewPasskey): Promise<PasskeyRow>
  /** Store the new signature counter and the time of use. */
  touchPasskey(id: number, counter: number, at: number): Promise<void>
  /** Delete one of the user's passkeys (by id), or all of them (id omitted); answers how many went. */
  deletePasskeys(userId: number, id?: number): Promise<number>

  putChallenge(row: ChallengeRow): Promise<void>
  /** The challenge while unexpired at `now`, left in place. */
  peekChallenge(id: string, purpose: string, now: number): Promise<ChallengeRow | undefined>
  /** Delete and return the challenge if unexpired at `now`: only one caller gets it. */
  takeChallenge(id: string, purpose: string, now: number): Promise<ChallengeRow | undefined>
  deleteExpiredChallenges(now: number): Promise<number>
}
