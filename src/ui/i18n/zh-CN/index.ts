import { common } from './common'
import { nav } from './nav'
import { auth } from './auth'
import { dashboard } from './dashboard'
import { tokens } from './tokens'
import { playground } from './playground'
import { logs } from './logs'
import { wallet } from './wallet'
import { profile } from './profile'
import { channels } from './channels'
import { pricing } from './pricing'
import { users } from './users'
import { redemptions } from './redemptions'
import { settings } from './settings'
import type { MessageKey } from '../message-key'

/** The Simplified Chinese catalog; each area is typed against the English one, so no key can be missing. */
export const zhCN: Record<MessageKey, string> = {
  ...common,
  ...nav,
  ...auth,
  ...dashboard,
  ...tokens,
  ...playground,
  ...logs,
  ...wallet,
  ...profile,
  ...channels,
  ...pricing,
  ...users,
  ...redemptions,
  ...settings,
}
