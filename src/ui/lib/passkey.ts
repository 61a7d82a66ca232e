import { api, ApiError } from '../api/client'

// loaded when a passkey is first used (a separate chunk once the console build splits; inlined until then)
const browser = () => import('@simplewebauthn/browser')

/** A closed or refused browser prompt, worded by the console like a server refusal. */
function cancelled(error: unknown): never {
  if (error instanceof ApiError) throw error
  throw new ApiError(400, String((error as Error)?.message ?? error), { code: 'passkey_cancelled' })
}

/** Sign in without a password: a discoverable passkey of this site. */
export async function signInWithPasskey(): Promise<void> {
  const { options } = await api.post<{ options: never }>('/api/user/passkey/login/begin')
  const { startAuthentication } = await browser()
  const assertion = await startAuthentication({ optionsJSON: options }).catch(cancelled)
  await api.post('/api/user/passkey/login/finish', assertion)
}

/** Register a new passkey for the logged-in user. */
export async function addPasskey(name: string): Promise<void> {
  const { options } = await api.post<{ options: never }>('/api/user/passkey/register/begin')
  const { startRegistration } = await browser()
  const credential = await startRegistration({ optionsJSON: options }).catch(cancelled)
  await api.post(`/api/user/passkey/register/finish?name=${encodeURIComponent(name)}`, credential)
}

/** Freshly verify this session with one of the user's passkeys. */
export async function verifyWithPasskey(): Promise<void> {
  const { options } = await api.post<{ options: never }>('/api/user/passkey/verify/begin')
  const { startAuthentication } = await browser()
  const assertion = await startAuthentication({ optionsJSON: options }).catch(cancelled)
  await api.post('/api/user/passkey/verify/finish', assertion)
}
