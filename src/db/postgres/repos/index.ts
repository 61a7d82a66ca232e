import { closePostgres, type PgDb } from '../client'
import { appliedMigrations } from '../migrate'
import { migrations } from '../migrations'
import { LogType, type NewLog, type Repos, type StorageCheck } from '../../repos'
import { createChannelRepo } from './channels'
import { createEmailCodeRepo } from './email-codes'
import { insertLogs, insertLogsAtomically } from './log-insert'
import { createLogRepo } from './logs'
import { createOptionRepo } from './options'
import { createPostgresQuota, DEFAULT_LEASE, type HoldLease } from './quota'
import { createRedemptionRepo } from './redemptions'
import { createRevokedSessionRepo } from './revoked-sessions'
import { createSecondFactorRepo } from './second-factors'
import { createBindingRepo } from './bindings'
import { createNotifySettingsRepo } from './notify-settings'
import { createCustomOAuthRepo } from './custom-oauth'
import { createTokenRepo } from './tokens'
import { createTopUpRepo } from './topups'
import { createSubscriptionRepo } from './subscriptions'
import { createPlanHolds } from './plan-holds'
import { createTaskRepo } from './tasks'
import { withPlanHolderCache } from '../../repos/plan-holders'
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
 * the database (quota.ts): a reservation at once, a settlement within its reservation with the next log batch.
 */
export function createPostgresRepos(db: PgDb, options: PostgresRepoOptions): PostgresRepos {
  const client = db.$client
  const users = createUserRepo(db)
  const tokens = createTokenRepo(db)
  const lease = { ...DEFAULT_LEASE, ...options.lease }
  // the plans' takes follow the wallet's lease, renewed and swept with the wallet's holds
  const planHolds = createPlanHolds(client, options.nodeId, lease)
  const holds = createPostgresQuota(client, { nodeId: options.nodeId, lease, cached: { user: users.cached, token: tokens.cachedById }, also: planHolds })
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
    secondFactors: createSecondFactorRepo(db),
    emailCodes: createEmailCodeRepo(db),
    topups: createTopUpRepo(db, (id) => users.repo.forget(id)),
    subscriptions: withPlanHolderCache(createSubscriptionRepo(db, { nodeId: options.nodeId, lease, holds: planHolds })),
    tasks: createTaskRepo(db, (id) => (users.repo.forget(id), tokens.repo.forgetUser(id))),
    bindings: createBindingRepo(db),
    customOAuth: createCustomOAuthRepo(db),
    notifySettings: createNotifySettingsRepo(db),
    holds: {
      renew: holds.renew,
      sweep: holds.sweep,
      get live() {
        return holds.liveHolds + planHolds.live
      },
    },

    /** The rows and their hourly sums in one statement; the balances moved when each request settled. */
    async commitMetering(rows: NewLog[]) {
      const settlements = holds.takePending()
      if (rows.length === 0 && settlements.length === 0) return
      // the settlements and the log rows they priced in one transaction: charged and logged together, or neither
      let written = () => {}
      const commit = settlements.length === 0 ? insertLogsAtomically(client, rows) : client.begin(async (tx) => {
        const { differing, committed } = await holds.writeSettlements(tx, settlements)
        await insertLogs(tx, differing.size === 0 ? rows : rows.map((row) => withCharge(row, differing)))
        written = committed
      })
      commits.add(commit)
      try {
        await commit
        written()
      } catch (error) {
        holds.requeue(settlements) // with the rows, which the log writer keeps and retries
        throw error
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

/**
 * The log row of a request whose settlement the database decided differently from what `settle` answered (a
 * cost beyond the reservation, capped by balances that moved meanwhile): the charge made, and what stayed unpaid.
 */
function withCharge(row: NewLog, differing: Map<string, { answered: number; charged: number }>): NewLog {
  const d = row.type === LogType.consume && row.requestId ? differing.get(row.requestId) : undefined
  if (!d) return row
  let other: Record<string, unknown> = {}
  try {
    other = JSON.parse(row.other || '{}') as Record<string, unknown>
  } catch {}
  const unpaid = (typeof other.unpaid === 'number' ? other.unpaid : 0) + d.answered - d.charged
  if (unpaid !== 0) other.unpaid = unpaid
  else delete other.unpaid
  // the row may hold a plan's part of the charge too: only the wallet's part moves
  return { ...row, quota: (row.quota ?? d.answered) - d.answered + d.charged, other: JSON.stringify(other) }
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
