import type { UserRow } from '../../db/repos'
import type { AppDeps } from '../../deps'
import { groupRatio } from '../../metering/prices'
import { Role } from '../../db/repos/user-roles'
import type { Channel } from '../../relay/routing'

/** Enabled channels serving the group (from the routing cache: exactly what the relay would route). */
function enabledIn(channels: readonly Channel[], group: string): Channel[] {
  return channels.filter((c) => c.status === 1 && c.groups.includes(group))
}

/** new-api's `GET /api/user/models`: the model names the user's group can call, sorted. */
export function userModels(deps: Pick<AppDeps, 'routing'>, user: UserRow): string[] {
  const models = new Set<string>()
  for (const channel of enabledIn(deps.routing.channels.all(), user.group)) for (const model of channel.models) models.add(model)
  return [...models].sort()
}

export interface GroupInfo {
  ratio: number
  desc: string
}

/**
 * new-api's `GET /api/user/self/groups`: the groups the user may put a token in, with their price ratio.
 * A user has their own group; admins may use any group (token rules), so they get every group known:
 * their own, the `GroupRatio` option's and the channels'. There is no group description registry: `desc`
 * is the name (with "(your group)" on the user's own).
 */
export function userGroups(deps: Pick<AppDeps, 'routing' | 'options'>, user: UserRow): Record<string, GroupInfo> {
  const names = new Set<string>([user.group])
  if (user.role >= Role.admin) {
    for (const group of Object.keys(deps.options.get<Record<string, number>>('GroupRatio'))) names.add(group)
    for (const channel of deps.routing.channels.all()) for (const group of channel.groups) names.add(group)
  }
  const groups: Record<string, GroupInfo> = {}
  for (const group of [...names].sort()) {
    groups[group] = { ratio: groupRatio(deps.options, group), desc: group === user.group ? `${group} (your group)` : group }
  }
  return groups
}
