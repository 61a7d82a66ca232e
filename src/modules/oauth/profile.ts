/** Who the provider says signed in: its stable id for the account, and what a new Tollgate user is made from. */
export interface ProviderProfile {
  /** the provider's stable account id (GitHub's numeric id, OIDC's `sub`, …), as text */
  id: string
  /** a name to offer as the new user's username */
  username: string
  displayName: string
  /** the address the provider gives ('' for none), verified or not */
  email: string
  /** the provider vouches that the account owns `email`: only then is it stored on a new user */
  emailVerified: boolean
}

const str = (value: unknown): string => (typeof value === 'string' ? value : typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : '')

/** Bounded text from a provider's JSON (ids, names): at most `max` characters. */
export function field(source: Record<string, unknown>, key: string, max = 256): string {
  return str(source[key]).slice(0, max)
}
