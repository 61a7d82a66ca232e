import type { Db } from '../client'
import { createChannelRepo } from './channels'
import { createCheckpointHandover, type CheckpointOptions } from './checkpoints'
import { createLogRepo, type NewLog } from './logs'
import { createQuotaRepo, type QuotaRepo } from './quota'
import { createRedemptionRepo } from './redemptions'
import { createRevokedSessionRepo } from './revoked-sessions'
import { createOptionRepo } from './options'
import { syncedBefore } from './synced'
import { createTokenRepo } from './tokens'
import { createUserRepo } from './users'
import { startWriterThread, type WriterThread } from '../writer/thread'

export interface RepoOptions {
  /** commit log rows and quota deltas on a writer thread (file databases only); default true (config decides in the app) */
  writerThread?: boolean
  /** when a main thread that commits its own batches hands WAL checkpoints to a thread (see checkpoints.ts) */
  checkpoints?: CheckpointOptions
}

export function createRepos(db: Db, options: RepoOptions = {}) {
  const path = db.$client.filename
  const onFile = path !== '' && path !== ':memory:'
  // started with the first batch: a gateway that has logged nothing yet does not pay for the thread
  let useThread = (options.writerThread ?? true) && onFile
  let thread: WriterThread | undefined
  const checkpoints = onFile && !useThread ? createCheckpointHandover(db.$client, path, options.checkpoints) : undefined
  // the ledger needs the cached rows, and the repos need to write the ledger before they touch the database:
  // first whatever the writer thread holds, then what is still pending here
  let quota: QuotaRepo | undefined
  const sync = () => {
    // bounded like SQLite's own busy timeout: a file locked from outside must not hold the event loop longer
    thread?.waitIdle(5_000)
    quota?.flush()
  }
  const users = createUserRepo(db, sync)
  const tokens = createTokenRepo(db, sync)
  quota = createQuotaRepo(db, { user: users.findById, token: tokens.liveById })
  const logs = createLogRepo(db)
  const ledger = quota
  const commitTx = db.$client.transaction((rows: NewLog[]) => {
    ledger.writePending()
    logs.insertMany(rows)
  })
  return {
    users,
    tokens,
    options: createOptionRepo(db),
    channels: syncedBefore(createChannelRepo(db), sync, []),
    logs,
    quota,
    redemptions: syncedBefore(createRedemptionRepo(db), sync, []),
    revokedSessions: createRevokedSessionRepo(db),
    /**
     * Log rows and the quota ledger's pending deltas in one transaction: a batch is written whole or not at
     * all. With the writer thread, handed over and committed there; the main thread goes on at once.
     */
    commitMetering(rows: NewLog[]): void {
      if (useThread && (thread ??= startWriterThread(path)).alive) {
        const deltas = ledger.takePending()
        if (rows.length > 0 || deltas) thread.post(rows, deltas)
        return
      }
      if (rows.length === 0 && !ledger.dirty) return
      commitTx(rows)
      ledger.written()
      checkpoints?.afterCommit()
    },
    /** whether a thread checkpoints the WAL for the main connection's commits now */
    get checkpointsHandedOver(): boolean {
      return checkpoints?.handedOver ?? false
    },
    /** Block until every batch handed to the writer thread is on disk (log queries, tests), at most 5 s like a read. */
    drainMetering(): void {
      thread?.waitIdle(5_000)
    },
    /** Stop the writer thread after its last batch, and the checkpoint thread (before the database closes). */
    close(): void {
      checkpoints?.stop()
      thread?.stop()
      thread = undefined
      useThread = false
    },
  }
}

export type Repos = ReturnType<typeof createRepos>
export type { Page, UserRow } from './users'
export type { TokenRow } from './tokens'
export type { AbilityRow, ChannelRow } from './channels'
