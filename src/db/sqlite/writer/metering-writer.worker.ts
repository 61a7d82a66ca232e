/**
 * The metering writer thread: its own connection to the gateway's SQLite file, where log rows and quota
 * deltas are committed, one transaction per batch, in the order they were sent. The main thread's event
 * loop never waits for these writes (or the WAL checkpoints inside them). A batch that fails (a locked
 * file) is retried until it goes in, and the batches behind it wait: nothing is dropped or reordered.
 * When the main thread commits its own batches, the thread only checkpoints the WAL (see repos/index.ts).
 */
import { Database } from 'bun:sqlite'
import { createDeltaWriter } from '../repos/ledger-write'
import { createLogInserter } from '../repos/log-insert'
import { configureConnection } from '../settings'
import type { ToWriter } from './protocol'

declare const self: Worker

const RETRY_MS = 200
let sqlite: Database | undefined
let commit: ((batch: Extract<ToWriter, { type: 'batch' }>) => void) | undefined
let done: Int32Array | undefined
const queue: Extract<ToWriter, { type: 'batch' }>[] = []
let retrying = false

function open(path: string, shared: SharedArrayBuffer, busyTimeoutMs?: number): void {
  sqlite = new Database(path, { strict: true })
  configureConnection(sqlite)
  if (busyTimeoutMs !== undefined) sqlite.exec(`PRAGMA busy_timeout = ${Math.floor(busyTimeoutMs)}`)
  const insertLogs = createLogInserter(sqlite)
  const writeDeltas = createDeltaWriter(sqlite)
  commit = sqlite.transaction((batch: Extract<ToWriter, { type: 'batch' }>) => {
    if (batch.deltas) writeDeltas(batch.deltas)
    if (batch.rows.length > 0) insertLogs(batch.rows)
  })
  done = new Int32Array(shared)
}

function drain(): void {
  retrying = false
  while (queue.length > 0 && commit && done) {
    const batch = queue[0]!
    try {
      commit(batch)
    } catch (error) {
      console.error(`metering writer: batch of ${batch.rows.length} rows not written yet (${(error as Error).message}); retrying`)
      retrying = true
      setTimeout(drain, RETRY_MS)
      return
    }
    queue.shift()
    Atomics.store(done, 0, batch.seq)
    Atomics.notify(done, 0)
  }
}

/** PASSIVE: copies what it can without waiting for or blocking the connections that write. */
function checkpointEvery(ms: number): void {
  setInterval(() => {
    try {
      sqlite?.exec('PRAGMA wal_checkpoint(PASSIVE)')
    } catch {} // busy: the next one catches up
  }, ms)
}

self.onmessage = (event: MessageEvent<ToWriter>) => {
  const message = event.data
  if (message.type === 'open') return open(message.path, message.done, message.busyTimeoutMs)
  if (message.type === 'checkpoint') return checkpointEvery(message.everyMs)
  queue.push(message)
  if (!retrying) drain()
}
