import type { NewLog } from '../../repos/rows'
import type { LedgerDeltas } from '../repos/ledger-write'

/** Messages from the main thread to the metering writer thread. */
export type ToWriter =
  /** `done` holds the sequence number of the last batch committed (Int32, index 0) */
  | { type: 'open'; path: string; done: SharedArrayBuffer; busyTimeoutMs?: number }
  | { type: 'batch'; seq: number; rows: NewLog[]; deltas?: LedgerDeltas }
  /** from now on, checkpoint the WAL (PASSIVE) this often, for a main thread that commits its own batches */
  | { type: 'checkpoint'; everyMs: number }
