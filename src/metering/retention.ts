import type { LogRepo } from '../db/repos'
import type { OptionStore } from '../options/store'

// Deleting 5,000 rows held the event loop for ~90 ms (1M-row table); 500 rows keep a step near 10 ms, and
// requests run between steps. Freed pages go back to the file system in steps of the same size.
const BATCH = 500
const VACUUM_PAGES = 256

export interface RetentionDeps {
  options: Pick<OptionStore, 'get'>
  logs: Pick<LogRepo, 'deleteBefore' | 'compact' | 'freePages' | 'optimize'>
}

const yieldToRequests = () => new Promise((resolve) => setTimeout(resolve, 0))

/**
 * Delete logs older than `LogRetentionDays` (0 keeps everything) in small batches so no single write holds
 * the database (and the event loop) long, then hand the freed pages back to the file system, also in
 * steps. Returns the rows deleted.
 */
export async function pruneLogs(deps: RetentionDeps, now = Math.floor(Date.now() / 1000)): Promise<number> {
  const days = deps.options.get<number>('LogRetentionDays')
  if (days <= 0) {
    await deps.logs.optimize()
    return 0
  }
  const before = now - days * 86_400
  let total = 0
  for (;;) {
    const n = await deps.logs.deleteBefore(before, BATCH)
    total += n
    if (n < BATCH) break
    await yieldToRequests()
  }
  // stops when a step frees nothing too: a file without incremental auto-vacuum keeps its free list
  for (let free = total > 0 ? await deps.logs.freePages() : 0; free > 0; ) {
    await deps.logs.compact(VACUUM_PAGES)
    const left = await deps.logs.freePages()
    if (left >= free) break
    free = left
    await yieldToRequests()
  }
  await deps.logs.optimize()
  return total
}

/** Runs `pruneLogs` shortly after start and then every hour. */
export function createRetentionJob(deps: RetentionDeps, everyMs = 3_600_000) {
  let timer: ReturnType<typeof setInterval> | undefined
  let first: ReturnType<typeof setTimeout> | undefined
  const run = () =>
    void pruneLogs(deps).catch((error: unknown) => console.error(`log retention: ${(error as Error).message}`))
  return {
    start(): void {
      if (timer) return
      first = setTimeout(run, 10_000)
      timer = setInterval(run, everyMs)
      first.unref?.()
      timer.unref?.()
    },
    stop(): void {
      clearTimeout(first)
      clearInterval(timer)
      timer = first = undefined
    },
    runOnce: () => pruneLogs(deps),
  }
}
