import { common } from './common'
import { nav } from './nav'
import { auth } from './auth'
import { oauth } from './oauth'
import { accounts } from './accounts'
import { messenger } from './messenger'
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
import { outputCaps } from './output-caps'
import { twofa } from './twofa'
import { mail } from './mail'
import { firstRun } from './first-run'
import { errors } from './errors'
import { channelHealth } from './channel-health'
import { channelBalance } from './channel-balance'
import { payments } from './payments'
import { orders } from './orders'
import { plans } from './plans'
import { tasks } from './tasks'
import { videos } from './videos'
import { paymentSettings } from './payment-settings'
import { site } from './site'
import { models } from './models'
import { priceTiers } from './price-tiers'
import { priceSync } from './price-sync'
import { playgroundExtra } from './playground-extra'
import { affinity } from './affinity'
import { channelOverrides } from './channel-overrides'
import { shell } from './shell'
import { dashboardTraffic } from './dashboard-traffic'
import { notify } from './notify'
import { channelStats } from './channel-stats'
import { upstreamModels } from './upstream-models'
import { codex } from './codex'
import { channelTraffic } from './channel-traffic'
import { priceSyncWords } from './price-sync-words'
import { money } from './money'
import { channelSuggest } from './channel-suggest'
import { planUpgrade } from './plan-upgrade'
import { upstreamCheck } from './upstream-check'
import type { MessageKey } from '../message-key'

/** The Simplified Chinese catalog; each area is typed against the English one, so no key can be missing. */
export const zhCN: Record<MessageKey, string> = {
  ...common,
  ...nav,
  ...auth,
  ...oauth,
  ...accounts,
  ...messenger,
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
  ...outputCaps,
  ...twofa,
  ...mail,
  ...firstRun,
  ...errors,
  ...channelHealth,
  ...channelBalance,
  ...payments,
  ...orders,
  ...plans,
  ...tasks,
  ...videos,
  ...paymentSettings,
  ...site,
  ...models,
  ...priceTiers,
  ...priceSync,
  ...playgroundExtra,
  ...affinity,
  ...channelOverrides,
  ...shell,
  ...dashboardTraffic,
  ...notify,
  ...channelStats,
  ...upstreamModels,
  ...codex,
  ...channelTraffic,
  ...priceSyncWords,
  ...money,
  ...channelSuggest,
  ...planUpgrade,
  ...upstreamCheck,
}
