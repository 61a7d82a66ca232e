/**
 * A job's schedule: `run` `firstMs` after `start`, then every `everyMs` until `stop` (one run at a time; a failed
 * run is logged and the schedule goes on). The timers never keep the process alive.
 */
export function periodic(label: string, firstMs: number, everyMs: number, run: () => Promise<unknown>) {
  let timer: ReturnType<typeof setTimeout> | undefined
  let busy = false
  const tick = async (): Promise<void> => {
    if (!busy) {
      busy = true
      await run()
        .catch((error: unknown) => console.error(`${label}: ${(error as Error).message}`))
        .finally(() => (busy = false))
    }
    if (timer) schedule(everyMs)
  }
  const schedule = (ms: number): void => {
    timer = setTimeout(() => void tick(), ms)
    timer.unref?.()
  }
  return {
    start(): void {
      if (!timer) schedule(firstMs)
    },
    stop(): void {
      clearTimeout(timer)
      timer = undefined
    },
  }
}
