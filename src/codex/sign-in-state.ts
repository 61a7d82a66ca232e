import type { SecretBox } from '../crypto/secret-box'

/**
 * A ChatGPT sign-in in progress, kept in this browser's cookie sealed (AES-GCM, crypto/secret-box.ts): the state
 * and PKCE verifier never reach the page's script, and a flow started for one channel cannot complete another.
 */
export interface SignInState {
  state: string
  verifier: string
  /** the channel it was started for (0: a channel being created) */
  channelId: number
  /** the admin who started it */
  userId: number
  /** ms */
  expiresAt: number
}

export const SIGN_IN_COOKIE = 'tollgate_codex_oauth'
export const SIGN_IN_TTL_MS = 10 * 60_000

export const sealSignIn = (box: SecretBox, state: SignInState): Promise<string> => box.encrypt(JSON.stringify(state))

/** The flow the cookie carries, if it is ours and unexpired. */
export async function openSignIn(box: SecretBox, value: unknown, now: number): Promise<SignInState | undefined> {
  if (typeof value !== 'string' || !value || value.length > 4096) return undefined
  try {
    const state = JSON.parse(await box.decrypt(value)) as SignInState
    return typeof state.expiresAt === 'number' && state.expiresAt > now ? state : undefined
  } catch {
    return undefined
  }
}

/**
 * The key a sign-in made before its channel exists, handed to the console sealed: it goes into the new channel's
 * key field, and only this server can open it (on create or edit). It lapses like the flow.
 */
const SEALED_PREFIX = 'codex-sign-in:'

export async function sealKey(box: SecretBox, keyText: string, expiresAt: number): Promise<string> {
  return SEALED_PREFIX + (await box.encrypt(JSON.stringify({ key: keyText, expiresAt })))
}

export const isSealedKey = (text: string): boolean => text.startsWith(SEALED_PREFIX)

/** A key field as typed: a sealed sign-in opened into its key, else as it is. Undefined: sealed but not ours or lapsed. */
export async function openSealedKey(box: SecretBox, text: string, now: number): Promise<string | undefined> {
  if (!text.startsWith(SEALED_PREFIX)) return text
  try {
    const sealed = JSON.parse(await box.decrypt(text.slice(SEALED_PREFIX.length))) as { key?: unknown; expiresAt?: unknown }
    return typeof sealed.key === 'string' && typeof sealed.expiresAt === 'number' && sealed.expiresAt > now ? sealed.key : undefined
  } catch {
    return undefined
  }
}
