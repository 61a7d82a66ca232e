import { closeDatabase, type Db } from '../client'
import { sqliteCheck } from '../readiness'
import { startWriterThread, type WriterThread } from '../writer/thread'
import type { NewLog, QuotaRepo, Repos } from '../../repos'
import { createChannelRepo } from './channels'
import { createEmailCodeRepo } from './email-codes'
import { createCheckpointHandover, type CheckpointOptions } from './checkpoints'
import { createLogInserter } from './log-insert'
import { createLogRepo } from './logs'
import { createOptionRepo } from './options'
import { createQuotaLedger, type QuotaLedger } from './quota'
import { createRedemptionRepo } from './redemptions'
import { createRevokedSessionRepo } from './revoked-sessions'
import { createSecondFactorRepo } from './second-factors'
import { createBindingRepo } from './bindings'
import { createNotifySettingsRepo } from './notify-settings'
import { createCustomOAuthRepo } from './custom-oauth'
import { syncedBefore } from './synced'
import { createTokenRepo } from './tokens'
import { createTopUpRepo } from './topups'
import { createSubscriptionRepo } from './subscriptions'
import { createTaskRepo } from './tasks'
import { withPlanHolderCache } from '../../repos/plan-holders'
import { createUserRepo } from './users'

export interface RepoOptions {
  /** commit log rows and quota deltas on a writer thread (file databases only); default true (config decides in the app) */
  writerThread?: boolean
  /** when a main thread that commits its own batches hands WAL checkpoints to a thread (see checkpoints.ts) */
  checkpoints?: CheckpointOptions
  /** `close` closes the database too (the factory opened it) */
  ownsDatabase?: boolean
}

/** The SQLite repositories, plus what only SQLite has (tests and benchmarks look at it). */
export interface SqliteRepos extends Repos {
  readonly dialect: 'sqlite'
  /** whether a thread checkpoints the WAL for the main connection's commits now */
  readonly checkpointsHandedOver: boolean
}

/**
 * The repositories on one SQLite connection. bun:sqlite is synchronous, so each async method has done its work
 * when it returns its (already resolved) promise; the hot reads come from memory and the quota ledger decides on
 * the cached rows (quota.ts). This process owns the file: see quota.ts for why two gateways on it could overspend.
 */
export function createSqliteRepos(db: Db, options: RepoOptions = {}): SqliteRepos {
  const path = db.$client.filename
  const onFile = path !== '' && path !== ':memory:'
  // started with the first batch: a gateway that has logged nothing yet does not pay for the thread
  let useThread = (options.writerThread ?? true) && onFile
  let thread: WriterThread | undefined
  const checkpoints = onFile && !useThread ? createCheckpointHandover(db.$client, path, options.checkpoints) : undefined
  // the ledger needs the cached rows, and the repos need to write the ledger before they touch the database:
  // first whatever the writer thread holds, then what is still pending here
  let ledger: QuotaLedger | undefined
  let closed = false
  const sync = () => {
    // bounded like SQLite's own busy timeout: a file locked from outside must not hold the event loop longer
    thread?.waitIdle(5_000)
    ledger?.flush()
  }
  const users = createUserRepo(db, sync)
  const tokens = createTokenRepo(db, sync)
  const ledgerOf = (ledger = createQuotaLedger(db, { user: users.load, token: tokens.live }))
  const logs = createLogRepo(db)
  const insertLogs = createLogInserter(db.$client)
  const commitTx = db.$client.transaction((rows: NewLog[]) => {
    ledgerOf.writePending()
    insertLogs(rows)
  })
  const quota: QuotaRepo = {
    // decided synchronously on the cached rows; the promise is resolved when it is returned
    reserve: async (userId, tokenId, tokenLimited, amount) => ledgerOf.reserve(userId, tokenId, tokenLimited, amount),
    // the ledger holds per user and token, not per reservation: more of it is one more reservation, settled with the first
    topUp: async (_hold, userId, tokenId, tokenLimited, amount) => ledgerOf.reserve(userId, tokenId, tokenLimited, amount),
    settle: async (input) => ledgerOf.settle(input),
    holdToken: async (tokenId, amount) => ledgerOf.holdToken(tokenId, amount),
    settleElsewhere: async (input) => ledgerOf.settleElsewhere(input),
    onDirty: ledgerOf.onDirty,
    // the ledger decides on cached rows that already hold every refund
    hasPending: () => false,
  }
  return {
    dialect: 'sqlite',
    users: users.repo,
    tokens: tokens.repo,
    options: createOptionRepo(db),
    channels: syncedBefore(createChannelRepo(db), sync, []),
    logs,
    quota,
    redemptions: syncedBefore(createRedemptionRepo(db), sync, []),
    revokedSessions: createRevokedSessionRepo(db),
    secondFactors: createSecondFactorRepo(db),
    emailCodes: createEmailCodeRepo(db),
    topups: syncedBefore(createTopUpRepo(db), sync, []),
    subscriptions: withPlanHolderCache(createSubscriptionRepo(db)),
    // a refund moves balances the ledger caches: its pending deltas are written first
    tasks: syncedBefore(createTaskRepo(db, (id) => (users.repo.forget(id), tokens.repo.forgetUser(id))), sync, ['insert', 'findOwned', 'countRunning', 'list', 'claimDue', 'progress']),
    bindings: createBindingRepo(db),
    customOAuth: createCustomOAuthRepo(db),
    notifySettings: createNotifySettingsRepo(db),
    /** With the writer thread, the batch is handed over and committed there; the main thread goes on at once. */
    async commitMetering(rows) {
      if (useThread && (thread ??= startWriterThread(path)).alive) {
        const deltas = ledgerOf.takePending()
        if (rows.length > 0 || deltas) thread.post(rows, deltas)
        return
      }
      if (rows.length === 0 && !ledgerOf.dirty) return
      commitTx(rows)
      ledgerOf.written()
      checkpoints?.afterCommit()
    },
    get checkpointsHandedOver(): boolean {
      return checkpoints?.handedOver ?? false
    },
    /** At most 5 s, like a read. */
    async drainMetering() {
      thread?.waitIdle(5_000)
    },
    check: async () => sqliteCheck(db.$client),
    async close() {
      checkpoints?.stop()
      thread?.stop()
      thread = undefined
      useThread = false
      if (options.ownsDatabase && !closed) closeDatabase(db)
      closed = true
    },
  }
}
