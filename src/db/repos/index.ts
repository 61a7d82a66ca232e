import type { Db } from '../client'
import { createChannelRepo } from './channels'
import { createLogRepo } from './logs'
import { createQuotaRepo } from './quota'
import { createRedemptionRepo } from './redemptions'
import { createOptionRepo } from './options'
import { createTokenRepo } from './tokens'
import { createUserRepo } from './users'

export function createRepos(db: Db) {
  return {
    users: createUserRepo(db),
    tokens: createTokenRepo(db),
    options: createOptionRepo(db),
    channels: createChannelRepo(db),
    logs: createLogRepo(db),
    quota: createQuotaRepo(db),
    redemptions: createRedemptionRepo(db),
  }
}

export type Repos = ReturnType<typeof createRepos>
export type { Page, UserRow } from './users'
export type { TokenRow } from './tokens'
export type { AbilityRow, ChannelRow } from './channels'
