import { api } from '../../api/client'

/** Go where the user was headed (`?next=`, same-origin paths only) or to the dashboard. */
export async function afterLogin(refresh: () => Promise<void>, navigate: (to: string) => void): Promise<void> {
  await refresh()
  const next = new URLSearchParams(location.search).get('next')
  navigate(next && next.startsWith('/') && !next.startsWith('//') ? next : '/dashboard')
}

/**
 * Log in (`turnstileQuery`: `?turnstile=…` when the instance asks for it); a user with 2FA gets the pending
 * sign-in's token back (the code is asked next), anyone else goes on.
 */
export async function logIn(username: string, password: string, refresh: () => Promise<void>, navigate: (to: string) => void, turnstileQuery = ''): Promise<string | undefined> {
  const data = await api.post<{ require_2fa?: boolean; flow_token?: string }>(`/api/user/login${turnstileQuery}`, { username, password })
  if (data?.require_2fa) return data.flow_token
  await afterLogin(refresh, navigate)
  return undefined
}
