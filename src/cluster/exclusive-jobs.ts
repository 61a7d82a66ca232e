import type { Coordination } from '../coord'

/** A background job with its own schedule: `start` begins it (its timers), `stop` ends them. Both synchronous. */
export interface Job {
  name: string
  start(): void
  stop(): void
}

export interface JobHolding {
  /** the job names this node runs now */
  readonly held: string[]
  start(): void
  /** Stop every job here and give its lease back (resolves once released). */
  stop(): Promise<void>
}

/**
 * Each job runs on one node at a time: the node that holds its lease (`coord.runExclusive('job:<name>')`, renewed
 * every third of `ttlMs` while held) starts it and keeps it until it stops or loses the lease; the others try to
 * take the lease every third of `ttlMs`. When the holder dies its lease lapses within `ttlMs`, and the next try of
 * another node takes the job over. On one node (the local backend) the first try succeeds at once: the jobs run
 * as they always did.
 */
export function exclusiveJobs(coord: Pick<Coordination, 'runExclusive'>, jobs: readonly Job[], ttlMs: number): JobHolding {
  const held = new Set<string>()
  let running: Promise<void>[] = []
  let stopping: AbortController | undefined

  /** Hold the lease and run the job until the node stops or the lease is lost. */
  function hold(job: Job, lost: AbortSignal, stop: AbortSignal): Promise<void> {
    return new Promise<void>((resolve) => {
      const end = () => {
        lost.removeEventListener('abort', end)
        stop.removeEventListener('abort', end)
        held.delete(job.name)
        job.stop()
        if (lost.aborted) console.warn(`job ${job.name}: another node took its lease; stopped here`)
        resolve()
      }
      if (lost.aborted || stop.aborted) return resolve()
      lost.addEventListener('abort', end)
      stop.addEventListener('abort', end)
      held.add(job.name)
      job.start()
    })
  }

  async function keepTrying(job: Job, stop: AbortSignal): Promise<void> {
    while (!stop.aborted) {
      await coord.runExclusive(`job:${job.name}`, ttlMs, (lost) => hold(job, lost, stop)).catch((error: unknown) => {
        console.error(`job ${job.name}: cannot take its lease:`, error)
      })
      if (!stop.aborted) await pause(ttlMs / 3, stop)
    }
  }

  return {
    get held() {
      return [...held].sort()
    },
    start(): void {
      if (stopping) return
      const controller = (stopping = new AbortController())
      running = jobs.map((job) => keepTrying(job, controller.signal))
    },
    async stop(): Promise<void> {
      stopping?.abort()
      stopping = undefined
      await Promise.all(running)
      running = []
    },
  }
}

/** Sleep `ms`, or less when `signal` aborts; the timer never keeps the process alive. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer)
      signal.removeEventListener('abort', done)
      resolve()
    }
    const timer = setTimeout(done, ms)
    timer.unref?.()
    signal.addEventListener('abort', done)
  })
}
