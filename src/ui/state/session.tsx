import { createContext, type ComponentChildren } from 'preact'
import { useCallback, useContext, useEffect, useMemo, useState } from 'preact/hooks'
import { api, onUnauthorized } from '../api/client'
import type { Status, User } from '../api/types'

export interface Session {
  status: Status | null
  /** the logged-in user; null when logged out, undefined while loading */
  user: User | null | undefined
  refresh(): Promise<void>
  refreshStatus(): Promise<void>
  /** end this session; `everywhere`: every session of the account and its access token (a failure is thrown) */
  logout(everywhere?: boolean): Promise<void>
}

const SessionContext = createContext<Session | null>(null)

/** Instance status and the logged-in user, loaded once and refreshed after anything that changes them. */
export function SessionProvider({ children }: { children: ComponentChildren }) {
  const [status, setStatus] = useState<Status | null>(null)
  const [user, setUser] = useState<User | null | undefined>(undefined)

  const refreshStatus = useCallback(async () => {
    setStatus(await api.get<Status>('/api/status'))
  }, [])
  const refresh = useCallback(async () => {
    setUser(await api.get<User | null>('/api/user/session').catch(() => null))
  }, [])
  const logout = useCallback(async (everywhere = false) => {
    if (everywhere) await api.post('/api/user/logout_all')
    else await api.get('/api/user/logout').catch(() => undefined)
    setUser(null)
  }, [])

  useEffect(() => {
    // the console waits on the status: a failed load (a node restarting, a network blip) is tried again, not left loading
    let retry: ReturnType<typeof setTimeout> | undefined
    const loadStatus = (attempt: number): Promise<void> =>
      refreshStatus().catch(() => {
        retry = setTimeout(() => void loadStatus(attempt + 1), Math.min(5000, 250 * 2 ** attempt))
      })
    void Promise.all([loadStatus(0), refresh()])
    const stop = onUnauthorized(() => setUser(null))
    return () => {
      clearTimeout(retry)
      stop()
    }
  }, [refresh, refreshStatus])

  const value = useMemo(() => ({ status, user, refresh, refreshStatus, logout }), [status, user, refresh, refreshStatus, logout])
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>
}

export function useSession(): Session {
  const value = useContext(SessionContext)
  if (!value) throw new Error('useSession outside SessionProvider')
  return value
}

/** The logged-in user inside pages that require one (the shell renders pages only then). */
export function useUser(): User {
  const { user } = useSession()
  if (!user) throw new Error('useUser without a logged-in user')
  return user
}
