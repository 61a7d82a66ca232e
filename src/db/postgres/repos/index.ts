import { closePostgres, type PgDb } from '../client'
import { appliedMigrations } from '../migrate'
import { migrations } from '../migrations'
import type { NewLog, Repos, StorageCheck } from '../../repos'
import { createChannelRepo } from './channels'
import { insertLogsAtomically } from './log-insert'
import { createLogRepo } from './logs'
import { createOptionRepo } from './options'
import { createPostgresQuota, DEFAULT_LEASE, type HoldLease } from './quota'
import { createRedemptionRepo } from './redemptions'
import { createRevokedSessionRepo } from './revoked-sessions'
import { createTokenRepo } from './tokens'
import { createUserRepo } from './users'

export interface PostgresRepoOptions {
  /** this process's id in the quota holds it takes (unique per running node) */
  nodeId: string
  /** `close` closes the pool too (the factory's caller opened it for these repositories) */
  ownsDatabase?: boolean
  /** the quota holds' lease (tests shorten it) */
  lease?: Partial<HoldLease>
}

/** The PostgreSQL repositories, plus what only PostgreSQL has (tests and benchmarks look at it). */
export interface PostgresRepos extends Repos {
  readonly dialect: 'postgres'
  readonly nodeId: string
  /** the quota holds of this node: renew them now, sweep every expired one now, how many are live */
  readonly holds: { renew(): Promise<number>; sweep(): Promise<number>; readonly live: number }
}

/**
 * The repositories on a PostgreSQL pool. Hot reads come from memory (users by id, tokens by key hash), refreshed
 * by these repositories' own writes and dropped by `forget…` for writes made on other nodes; quota is decided by
 * the database (quota.ts). Log batches are written at once (one statement each), so `onDirty` never fires.
 */
export function createPostgresRepos(db: PgDb, options: PostgresRepoOptions): PostgresRepos {
  const client = db.$client
  const users = createUserRepo(db)
  const tokens = createTokenRepo(db)
  const holds = createPostgresQuota(client, {
    nodeId: options.nodeId,
    lease: { ...DEFAULT_LEASE, ...options.lease },
    cached: { user: users.cached, token: tokens.cachedById },
  })
  holds.start()
  const commits = new Set<Promise<void>>()
  let closed = false

  return {
    dialect: 'postgres',
    nodeId: options.nodeId,
    users: users.repo,
    tokens: tokens.repo,
    options: createOptionRepo(db),
    channels: createChannelRepo(db),
    logs: createLogRepo(db),
    quota: holds.quota,
    redemptions: createRedemptionRepo(db, (id) => users.repo.forget(id)),
    revokedSessions: createRevokedSessionRepo(db),
    holds: {
      renew: holds.renew,
      sweep: holds.sweep,
      get live() {
        return holds.liveHolds
      },
    },

    /** The rows and their hourly sums in one statement; the balances moved when each request settled. */
    async commitMetering(rows: NewLog[]) {
      if (rows.length === 0) return
      const commit = insertLogsAtomically(client, rows)
      commits.add(commit)
      try {
        await commit
      } finally {
        commits.delete(commit)
      }
    },
    async drainMetering() {
      await Promise.allSettled([...commits])
    },
    check: async () => postgresCheck(db),
    async close() {
      if (closed) return
      closed = true
      await holds.stop()
      await Promise.allSettled([...commits])
      if (options.ownsDatabase) await closePostgres(db)
    },
  }
}

/** Readiness: the server answers a query, and its migration ledger has every embedded migration. */
async function postgresCheck(db: PgDb): Promise<StorageCheck> {
  try {
    await db.$client`SELECT 1`
    const done = new Set((await appliedMigrations(db.$client)).map((row) => row.tag))
    return { database: 'ok', pendingMigrations: migrations.filter((m) => !done.has(m.tag)).map((m) => m.tag) }
  } catch (error) {
    return { database: (error as Error).message, pendingMigrations: [] }
  }
}
