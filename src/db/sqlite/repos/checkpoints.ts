import type { Database } from 'bun:sqlite'
import { statSync } from 'node:fs'
import { startWriterThread, type WriterThread } from '../writer/thread'

/** SQLite's default `wal_autocheckpoint`, in pages. */
const AUTOCHECKPOINT_PAGES = 1000

export interface CheckpointOptions {
  /** hand checkpoints to a thread once the WAL file reaches this many bytes (default 2 MiB) */
  threadAtBytes?: number
  /** how often the thread checkpoints (default 100 ms) */
  everyMs?: number
  /** tests: start a thread that fails */
  startThread?: typeof startWriterThread
}

/**
 * WAL checkpoints off the event loop, for a main thread that commits its own metering batches. SQLite
 * checkpoints inside whichever commit takes the WAL past 1000 pages: under load (a 250-row batch every
 * ~15 ms) that is every few hundred ms, and each one (copy, then fsync) holds the event loop 5–30 ms,
 * which every request in flight waits out. Once the WAL file reaches `threadAtBytes`, i.e. under real
 * write load, the main connection stops checkpointing and a thread on its own connection runs PASSIVE
 * checkpoints, which neither wait for the writer nor block it. A gateway that never writes that much never
 * starts the thread or pays for its memory. If the thread dies, the main connection checkpoints again.
 */
export function createCheckpointHandover(sqlite: Database, path: string, options: CheckpointOptions = {}) {
  const threadAt = options.threadAtBytes ?? 2 * 1024 * 1024
  const walPath = `${path}-wal`
  let thread: WriterThread | undefined
  let gaveUp = false
  const checkpointHere = () => sqlite.exec(`PRAGMA wal_autocheckpoint = ${AUTOCHECKPOINT_PAGES}`)
  return {
    /** Call after each commit on the main connection. */
    afterCommit(): void {
      if (thread) {
        if (thread.alive) return
        checkpointHere()
        thread = undefined
        gaveUp = true
        return
      }
      if (gaveUp || (statSync(walPath, { throwIfNoEntry: false })?.size ?? 0) < threadAt) return
      // never throws: it runs after a commit, and its caller would take a throw for a failed commit
      try {
        thread = (options.startThread ?? startWriterThread)(path)
        thread.checkpointEvery(options.everyMs ?? 100)
        sqlite.exec('PRAGMA wal_autocheckpoint = 0')
      } catch (error) {
        console.error(`checkpoint thread did not start (${(error as Error).message}); SQLite checkpoints on the main thread`)
        thread = undefined
        gaveUp = true
      }
    },
    /** whether a thread does the checkpoints now */
    get handedOver(): boolean {
      return thread?.alive ?? false
    },
    /** End the thread; the main connection checkpoints again (and on close). */
    stop(): void {
      if (!thread) return
      thread.stop()
      thread = undefined
      checkpointHere()
    },
  }
}
