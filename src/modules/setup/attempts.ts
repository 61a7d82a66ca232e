/**
 * Attempts per address in a fixed one-minute window, for the setup code. Bounded: at most `maxAddresses`
 * windows are kept; the oldest is dropped first when a new address arrives at the cap.
 */
export interface AttemptLimiter {
  /** count one attempt by `address`; the seconds to wait when it is over the limit, else undefined */
  take(address: string): number | undefined
  readonly size: number
}

export function createAttemptLimiter(options: { perWindow: number; windowMs: number; maxAddresses: number; now?: () => number }): AttemptLimiter {
  const now = options.now ?? Date.now
  const windows = new Map<string, { start: number; count: number }>()
  return {
    take(address) {
      const at = now()
      let window = windows.get(address)
      if (!window || at - window.start >= options.windowMs) {
        windows.delete(address)
        if (windows.size >= options.maxAddresses) windows.delete(windows.keys().next().value!)
        windows.set(address, (window = { start: at, count: 0 }))
      }
      window.count++
      if (window.count <= options.perWindow) return undefined
      return (window.start + options.windowMs - at) / 1000
    },
    get size() {
      return windows.size
    },
  }
}
