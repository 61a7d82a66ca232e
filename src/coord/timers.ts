/**
 * Run `task` every `ms` until the returned stop is called. A run still in progress skips the next tick (a
 * slow Redis must not pile up renewals); errors are the task's to handle. The timer never keeps the
 * process alive.
 */
export function repeat(ms: number, task: () => Promise<unknown> | unknown): () => void {
  let busy = false
  const timer = setInterval(() => {
    if (busy) return
    busy = true
    Promise.resolve()
      .then(task)
      .catch((error: unknown) => console.error('coordination: background task failed:', error))
      .finally(() => (busy = false))
  }, Math.max(5, ms))
  timer.unref?.()
  return () => clearInterval(timer)
}
