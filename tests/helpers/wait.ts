/**
 * Waiting on a condition instead of sleeping a fixed time: `await until(() => rows.length === 2)` returns as soon
 * as the condition holds (a fast machine does not wait) and fails with `what` when it never does (a slow one
 * gets the whole timeout, not a guess). Polls every few milliseconds: for state no event announces.
 */
export async function until(probe: () => boolean | Promise<boolean>, options: { timeout?: number; what?: string } = {}): Promise<void> {
  const { timeout = 15_000, what = 'the condition' } = options
  const deadline = Date.now() + timeout
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${timeout} ms`)
    await Bun.sleep(5)
  }
}
