import { repeat } from './timers'
import type { Exclusive, Lease } from './types'

export interface LeaseOps {
  /** Extend the lease; false when another holder has it now. */
  renew(): Promise<boolean>
  release(): Promise<void>
}

export interface LeaseHandle {
  lease: Lease
  /** stop renewing without releasing (the holder vanishes, as on a crash) */
  abandon(): void
}

/** A held lease that renews itself every third of its TTL until released, abandoned or lost. */
export function leaseHandle(name: string, ttlMs: number, ops: LeaseOps, onEnd: (handle: LeaseHandle) => void): LeaseHandle {
  const lost = new AbortController()
  let held = true
  const end = (): void => {
    held = false
    stop()
    onEnd(handle)
  }
  const stop = repeat(ttlMs / 3, async () => {
    if (!held) return
    if (!(await ops.renew()) && held) {
      end()
      lost.abort(new Error(`lease ${name} was taken by another holder`))
    }
  })
  const lease: Lease = {
    name,
    get held() {
      return held
    },
    lost: lost.signal,
    async release() {
      if (!held) return
      end()
      await ops.release()
    },
  }
  const handle: LeaseHandle = { lease, abandon: () => held && end() }
  return handle
}

/** Run `fn` under the lease named `name`, released after; not at all when someone else holds it. */
export async function runExclusive<T>(tryAcquire: (name: string, ttlMs: number) => Promise<Lease | null>, name: string, ttlMs: number, fn: (signal: AbortSignal) => Promise<T>): Promise<Exclusive<T>> {
  const lease = await tryAcquire(name, ttlMs)
  if (!lease) return { ran: false }
  try {
    return { ran: true, value: await fn(lease.lost) }
  } finally {
    await lease.release()
  }
}
