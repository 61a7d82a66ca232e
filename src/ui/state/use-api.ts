import { useCallback, useEffect, useRef, useState } from 'preact/hooks'
import { ApiError } from '../api/client'

export interface Loaded<T> {
  data: T | undefined
  error: ApiError | undefined
  loading: boolean
  reload(): void
}

/** Runs `load` when `deps` change (and on reload); a late answer to an older call is dropped. */
export function useApi<T>(load: () => Promise<T>, deps: readonly unknown[]): Loaded<T> {
  const [state, setState] = useState<{ data?: T; error?: ApiError; loading: boolean }>({ loading: true })
  const [version, setVersion] = useState(0)
  const latest = useRef(0)
  useEffect(() => {
    const call = ++latest.current
    setState((previous) => ({ ...previous, loading: true }))
    load().then(
      (data) => call === latest.current && setState({ data, loading: false }),
      (error: unknown) =>
        call === latest.current &&
        setState((previous) => ({ data: previous.data, error: error instanceof ApiError ? error : new ApiError(0, String(error)), loading: false })),
    )
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [...deps, version])
  const reload = useCallback(() => setVersion((v) => v + 1), [])
  return { data: state.data, error: state.error, loading: state.loading, reload }
}
