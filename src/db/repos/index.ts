import type { Db } from '../client'
import { createChannelRepo } from './channels'
import { createLogRepo, type NewLog } from './logs'
import { createQuotaRepo, type QuotaRepo } from './quota'
import { createRedemptionRepo } from './redemptions'
import { createOptionRepo } from './options'
import { syncedBefore } from './synced'
import { createTokenRepo } from './tokens'
import { createUserRepo } from './users'

export function createRepos(db: Db) {
  // the ledger needs the cached rows, and the repos need to write the ledger before they touch the database
  let quota: QuotaRepo | undefined
  const sync = () => quota?.flush()
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
    /** Log rows and the quota ledger's pending deltas in one transaction: a batch is written whole or not at all. */
    commitMetering(rows: NewLog[]): void {
      if (rows.length === 0 && !ledger.dirty) return
      commitTx(rows)
      ledger.written()
    },
  }
}

export type Repos = ReturnType<typeof createRepos>
export type { Page, UserRow } from './users'
export type { TokenRow } from './tokens'
export type { AbilityRow, ChannelRow } from './channels'
