import type { Db } from '../client'
import { createChannelRepo } from './channels'
import { createOptionRepo } from './options'
import { createTokenRepo } from './tokens'
import { createUserRepo } from './users'

export function createRepos(db: Db) {
  return {
    users: createUserRepo(db),
    tokens: createTokenRepo(db),
    options: createOptionRepo(db),
    channels: createChannelRepo(db),
  }
}

export type Repos = ReturnType<typeof createRepos>
export type { Page, UserRow } from './users'
export type { TokenRow } from './tokens'
export type { AbilityRow, ChannelRow } from './channels'
