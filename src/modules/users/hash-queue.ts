import { availableParallelism } from 'node:os'
import { RateLimitError } from '../../errors'

export interface HashLimits {
  /** hashes and checks running at once (0: one per CPU core) */
  concurrency: number
  /** more may wait for a turn, in order; beyond this they are refused */
  waiting: number
}

/** A turn at argon2: give it back when done (idempotent). */
export interface HashTurn {
  release(): void
}

/** 503 while every turn is taken and the queue is full: try again in a second. */
const hashBusy = () => new RateLimitError('the server is busy checking passwords: try again in 1 second', 1, 'busy', 503)

let limits: () => HashLimits = () => ({ concurrency: 0, waiting: 64 })
let running = 0
let peak = 0
const queue: (() => void)[] = []

/**
 * Password hashing (argon2id, some 64 MiB and tens of ms of one core each) is the dearest thing a stranger can ask
 * for: every hash and check in this process takes a turn here, at most `concurrency` at once and `waiting` in
 * line; the rest get 503 at once instead of piling up. One queue per process, as the cores are the process's.
 */
export function setHashLimits(read: () => HashLimits): void {
  limits = read
}

const allowed = (): number => limits().concurrency || availableParallelism()

/** Wait for a turn (in order of asking), or throw `hashBusy()` when the line is full. */
export function takeHashTurn(): Promise<HashTurn> {
  if (running < allowed()) return Promise.resolve(start())
  if (queue.length >= limits().waiting) return Promise.reject(hashBusy())
  return new Promise((resolve) => queue.push(() => resolve(start())))
}

function start(): HashTurn {
  running++
  peak = Math.max(peak, running)
  let done = false
  return {
    release() {
      if (done) return
      done = true
      running--
      while (queue.length > 0 && running < allowed()) queue.shift()!()
    },
  }
}

/** Run `work` in a turn of its own. */
export async function inHashTurn<T>(work: () => Promise<T>): Promise<T> {
  const turn = await takeHashTurn()
  try {
    return await work()
  } finally {
    turn.release()
  }
}

/** For tests and metrics: turns in use, waiting, and the most ever in use at once (reset by `resetPeak`). */
export const hashQueueStats = () => ({ running, waiting: queue.length, peak })
export const resetHashPeak = (): void => void (peak = running)
