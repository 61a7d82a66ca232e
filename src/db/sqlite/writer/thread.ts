import type { LedgerDeltas } from '../repos/ledger-write'
import type { NewLog } from '../../repos/rows'
import type { ToWriter } from './protocol'

/**
 * From source the worker file sits next to this one. In the compiled binary every module is bundled into
 * the entry at the root of Bun's embedded file system, and scripts/build.ts embeds the worker entry at its
 * path relative to src/ (the entries' common root); the smoke test (.ci/smoke-binary.sh) fails if the thread does not start.
 */
function workerUrl(): string {
  const compiled = import.meta.url.includes('$bunfs') || import.meta.url.includes('~BUN')
  return new URL(compiled ? './db/sqlite/writer/metering-writer.worker.ts' : './metering-writer.worker.ts', import.meta.url).href
}

export interface WriterThread {
  /** false once the thread died: callers write on the main thread instead */
  readonly alive: boolean
  /** Queue a batch; it is committed in order, in one transaction, off the main thread. */
  post(rows: NewLog[], deltas?: LedgerDeltas): void
  /** Checkpoint the WAL from the thread's connection every `ms` from now on (the main thread commits its own batches). */
  checkpointEvery(ms: number): void
  /** Block until every batch posted so far is committed (true), or `timeoutMs` passed / the thread died (false). */
  waitIdle(timeoutMs?: number): boolean
  /** Wait for the posted batches, then end the thread. */
  stop(): void
}

/**
 * Start the metering writer thread on the database file at `path`. Waiting is a blocking Atomics.wait on
 * the sequence number the thread publishes after each commit: only the rare callers that need the rows
 * on disk now (a management read, shutdown, tests) wait; the relay never does.
 */
export function startWriterThread(path: string, options: { busyTimeoutMs?: number } = {}): WriterThread {
  const worker = new Worker(workerUrl())
  // the thread alone never keeps the process alive (Bun's Worker has unref; the DOM type does not)
  const handle = worker as unknown as { unref?(): void }
  handle.unref?.()
  const shared = new SharedArrayBuffer(4)
  const done = new Int32Array(shared)
  let sent = 0
  let alive = true
  worker.addEventListener('error', (event) => {
    alive = false
    console.error(`metering writer thread failed (${(event as ErrorEvent).message}); writing on the main thread`)
  })
  worker.addEventListener('close', () => void (alive = false))
  worker.postMessage({ type: 'open', path, done: shared, busyTimeoutMs: options.busyTimeoutMs } satisfies ToWriter)

  const waitIdle = (timeoutMs = 30_000): boolean => {
    const until = performance.now() + timeoutMs
    for (;;) {
      const at = Atomics.load(done, 0)
      if (at >= sent) return true
      const left = until - performance.now()
      if (!alive || left <= 0) return false
      Atomics.wait(done, 0, at, Math.min(left, 100))
    }
  }
  return {
    get alive() {
      return alive
    },
    post(rows, deltas) {
      worker.postMessage({ type: 'batch', seq: ++sent, rows, deltas } satisfies ToWriter)
    },
    checkpointEvery(ms) {
      worker.postMessage({ type: 'checkpoint', everyMs: ms } satisfies ToWriter)
    },
    waitIdle,
    stop() {
      waitIdle()
      alive = false
      worker.terminate()
    },
  }
}
