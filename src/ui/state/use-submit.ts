import { useCallback, useState } from 'preact/hooks'

/** A form's sending state: `run` marks it busy, clears the last failure and keeps the new one for an ErrorAlert. */
export function useSubmit() {
  const [busy, setBusy] = useState(false)
  const [failure, setFailure] = useState<unknown>()
  const run = useCallback(async (send: () => Promise<void>) => {
    setBusy(true)
    setFailure(undefined)
    try {
      await send()
    } catch (error) {
      setFailure(error)
    } finally {
      setBusy(false)
    }
  }, [])
  return { busy, failure, run }
}
