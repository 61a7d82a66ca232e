import type { FollowUp } from './types'

/** A FollowUp whose GETs go to paths on `base`'s host through `get`, and whose waits end when `signal` aborts. */
export function followUp(base: string, get: (url: string) => Promise<Response>, signal: AbortSignal): FollowUp {
  return { get: (path) => get(new URL(path, base).href), wait: (ms) => abortableWait(ms, signal) }
}

function abortableWait(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason)
    const aborted = () => {
      clearTimeout(timer)
      reject(signal.reason)
    }
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', aborted)
      resolve()
    }, ms)
    signal.addEventListener('abort', aborted, { once: true })
  })
}
