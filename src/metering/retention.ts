import type { LogRepo } from '../db/repos/logs'
import type { OptionStore } from '../options/store'

const BATCH = 5_000

export interface RetentionDeps {
  options: Pick<OptionStore, 'get'>
  logs: Pick<LogRepo, 'deleteBefore' | 'compact' | 'optimize'>
}

/**
 * Delete logs older than `LogRetentionDays` (0 keeps everything) in batches of 5,000 so no single write
 * holds the database long, then hand the freed pages back to the file system. Returns the rows deleted.
 */
export async function pruneLogs(deps: RetentionDeps, now = Math.floor(Date.now() / 1000)): Promise<number> {
  const days = deps.options.get<number>('LogRetentionDays')
  if (days <= 0) {
    deps.logs.optimize()
    return 0
  }
  const before = now - days * 86_400
  let total = 0
  for (;;) {
    const n = deps.logs.deleteBefore(before, BATCH)
    total += n
    if (n < BATCH) break
    await new Promise((resolve) => setTimeout(resolve, 0)) // let requests in between batches
  }
  if (total > 0) deps.logs.compact()
  deps.logs.optimize()
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
