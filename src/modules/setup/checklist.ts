import { Elysia } from 'elysia'
import type { UserRow } from '../../db/repos'
import { Role } from '../../db/repos/user-roles'
import type { AppDeps } from '../../deps'
import { findPrice } from '../../metering/prices'
import { ok } from '../../plugins/envelope'
import { sessionPlugin } from '../../plugins/session'

/** At most this many unpriced model names in the answer; `unpriced_count` says how many there are. */
const NAMES_SHOWN = 50

export interface FirstRunChecklist {
  /** channels, whatever their status */
  channels: number
  self_use: boolean
  /** models enabled channels serve to the default group without a price (refused unless self-use mode) */
  unpriced_count: number
  unpriced_models: string[]
  /** the caller's own tokens */
  tokens: number
  /** the caller's requests so far (a playground answer counts) */
  requests: number
}

/** Where a new instance stands between "root created" and "first answer": the dashboard's checklist reads it. */
async function firstRunChecklist(deps: Pick<AppDeps, 'routing' | 'options' | 'repos'>, user: UserRow): Promise<FirstRunChecklist> {
  await deps.routing.channels.ready
  const channels = deps.routing.channels.all()
  const served = new Set<string>()
  for (const channel of channels) if (channel.status === 1) for (const model of channel.models) served.add(model)
  const unpriced = [...served].filter((model) => !findPrice(deps.options, model, 'default')).sort()
  const tokens = await deps.repos.tokens.listOwned(user.id, 0, 1)
  return {
    channels: channels.length,
    self_use: deps.options.get<boolean>('SelfUseModeEnabled'),
    unpriced_count: unpriced.length,
    unpriced_models: unpriced.slice(0, NAMES_SHOWN),
    tokens: tokens.total,
    requests: user.requestCount,
  }
}

/** GET /api/setup/checklist: admins only (it reads channels and prices). */
export function checklistModule(deps: AppDeps) {
  return new Elysia({ name: 'setup-checklist' })
    .use(sessionPlugin(deps))
    .get('/api/setup/checklist', async ({ user }) => ok(await firstRunChecklist(deps, user)), { role: Role.admin })
}
