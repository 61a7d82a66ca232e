import { api } from '../../api/client'

/** Log in, then go where the user was headed (`?next=`, same-origin paths only) or to the dashboard. */
export async function logIn(username: string, password: string, refresh: () => Promise<void>, navigate: (to: string) => void, turnstileQuery = ''): Promise<void> {
  await api.post(`/api/user/login${turnstileQuery}`, { username, password })
  await refresh()
  const next = new URLSearchParams(location.search).get('next')
  navigate(next && next.startsWith('/') && !next.startsWith('//') ? next : '/dashboard')
}
