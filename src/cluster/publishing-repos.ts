import type { Coordination } from '../coord'
import type { ChannelRepo, OptionRepo, RedemptionRepo, Repos, RevokedSessionRepo, TaskRepo, TokenRepo, TopUpRepo, UserRepo } from '../db/repos'
import type { SubscriptionRepo } from '../db/repos/subscriptions'
import { idList, sessionPayload, Topic, type TopicName } from './topics'

type Publish = Coordination['publish']

/**
 * The one place that knows which write tells the other nodes what: `repos` with each write that changes something
 * another node holds in memory followed, once it succeeded, by a publish of the ids it touched (src/cluster/topics.ts).
 * The writing node's own repositories, routing and option store refreshed themselves already; the others drop or
 * reload those rows (invalidations.ts). The write resolves once the message is sent. Writes that change nothing
 * another node caches publish nothing: a new token (its key was never presented anywhere), a first user, a
 * channel test's timing, metering's quota moves (decided by the database, or by the one node that owns SQLite).
 */
export function publishingRepos(repos: Repos, publish: Publish): Repos {
  const tell = async (topic: TopicName, ids: readonly (number | string)[]): Promise<void> => {
    if (ids.length === 0) return
    await publish(topic, idList(ids)).catch((error: unknown) => console.error(`coordination: cannot publish ${topic}:`, error))
  }
  // the answer of a write, after telling the others of `ids` when `changed` says the write did something
  const after = async <T>(result: T, changed: boolean, topic: TopicName, ids: readonly (number | string)[]): Promise<T> => {
    if (changed) await tell(topic, ids)
    return result
  }
  // the repositories are plain objects: the unwrapped methods are copied as they are
  const users = repos.users
  const publishedUsers: UserRepo = {
    ...users,
    insert: async (user, inviter) => after(await users.insert(user, inviter), inviter !== undefined, Topic.users, inviter ? [inviter.id] : []),
    update: async (id, patch) => after(await users.update(id, patch), Object.keys(patch).length > 0, Topic.users, [id]),
    delete: async (id) => {
      const deleted = await users.delete(id)
      return after(deleted, deleted, Topic.users, [id])
    },
    addQuota: async (id, amount) => {
      const row = await users.addQuota(id, amount)
      return after(row, row !== undefined, Topic.users, [id])
    },
    transferAffQuota: async (id, amount) => {
      const row = await users.transferAffQuota(id, amount)
      return after(row, row !== undefined, Topic.users, [id])
    },
    revokeAllSessions: async (id) => after(await users.revokeAllSessions(id), true, Topic.users, [id]),
    revokeCredentials: async (id, patch) => after(await users.revokeCredentials(id, patch), true, Topic.users, [id]),
    setPassword: async (id, hash) => after(await users.setPassword(id, hash), true, Topic.users, [id]),
    setAffCodeIfMissing: async (id, code) => after(await users.setAffCodeIfMissing(id, code), true, Topic.users, [id]),
  }
  const tokens = repos.tokens
  const publishedTokens: TokenRepo = {
    ...tokens,
    update: async (id, userId, patch) => {
      const row = await tokens.update(id, userId, patch)
      return after(row, row !== undefined && Object.keys(patch).length > 0, Topic.tokens, [id])
    },
    deleteOwned: async (ids, userId) => {
      const deleted = await tokens.deleteOwned(ids, userId)
      return after(deleted, deleted > 0, Topic.tokens, ids)
    },
    setStatusIf: async (id, from, to) => {
      const moved = await tokens.setStatusIf(id, from, to)
      return after(moved, moved, Topic.tokens, [id])
    },
  }
  const channels = repos.channels
  const rowIds = (rows: readonly { id: number }[]) => rows.map((row) => row.id)
  const channelsTold = async <T extends { id: number }[]>(rows: T): Promise<T> => after(rows, rows.length > 0, Topic.channels, rowIds(rows))
  const publishedChannels: ChannelRepo = {
    ...channels,
    insert: async (rows) => channelsTold(await channels.insert(rows)),
    update: async (id, patch) => {
      const row = await channels.update(id, patch)
      return after(row, row !== undefined && Object.keys(patch).length > 0, Topic.channels, [id])
    },
    updateMany: async (ids, patch) => channelsTold(await channels.updateMany(ids, patch)),
    updateByTag: async (tag, patch) => channelsTold(await channels.updateByTag(tag, patch)),
    setStatus: async (ids, status) => channelsTold(await channels.setStatus(ids, status)),
    setStatusByTag: async (tag, status) => channelsTold(await channels.setStatusByTag(tag, status)),
    delete: async (ids) => {
      const removed = await channels.delete(ids)
      return after(removed, removed.length > 0, Topic.channels, removed)
    },
  }
  const options = repos.options
  const publishedOptions: OptionRepo = {
    ...options,
    set: async (key, value) => after(await options.set(key, value), true, Topic.options, [key]),
    delete: async (key) => after(await options.delete(key), true, Topic.options, [key]),
  }
  const sessions = repos.revokedSessions
  const publishedSessions: RevokedSessionRepo = {
    ...sessions,
    insert: async (id, expiresAt) => after(await sessions.insert(id, expiresAt), true, Topic.sessions, [sessionPayload(id, expiresAt)]),
  }
  const redemptions = repos.redemptions
  const publishedRedemptions: RedemptionRepo = {
    ...redemptions,
    // the code's quota was credited to the user
    redeem: async (keyHash, userId, now, logOf) => {
      const row = await redemptions.redeem(keyHash, userId, now, logOf)
      return after(row, row !== undefined, Topic.users, [userId])
    },
  }
  const topups = repos.topups
  const publishedTopUps: TopUpRepo = {
    ...topups,
    // the order's quota was credited to its owner
    complete: async (tradeNo, check, now, logOf, grantOf) => {
      const row = await topups.complete(tradeNo, check, now, logOf, grantOf)
      return after(row, row !== undefined, Topic.users, row ? [row.userId] : [])
    },
  }
  const tasks = repos.tasks
  const publishedTasks: TaskRepo = {
    ...tasks,
    // a failed task's quota went back to its owner
    finish: async (id, owner, patch, refund) => {
      const ended = await tasks.finish(id, owner, patch, refund)
      return after(ended, ended && refund !== undefined && refund.amount > 0, Topic.users, refund?.log.userId ? [refund.log.userId] : [])
    },
  }
  const subscriptions = repos.subscriptions
  const publishedSubscriptions: SubscriptionRepo = {
    ...subscriptions,
    // the user now holds a plan: nodes that remember them as holding none forget it (a purchase tells through `complete`)
    grant: async (row) => after(await subscriptions.grant(row), true, Topic.users, [row.userId]),
    // a plan ended: its holder's group may have gone back
    cancel: async (id, now) => {
      const ended = await subscriptions.cancel(id, now)
      return after(ended, ended !== undefined, Topic.users, ended ? [ended.userId] : [])
    },
    expireUpgrades: async (now, limit) => {
      const ended = await subscriptions.expireUpgrades(now, limit)
      return after(ended, ended.length > 0, Topic.users, ended.map((end) => end.userId))
    },
  }
  // the rest of `Repos` (metering, check, close, a dialect's own getters) is reached through the prototype
  return Object.assign(Object.create(repos) as Repos, {
    users: publishedUsers,
    tokens: publishedTokens,
    channels: publishedChannels,
    options: publishedOptions,
    revokedSessions: publishedSessions,
    redemptions: publishedRedemptions,
    topups: publishedTopUps,
    tasks: publishedTasks,
    subscriptions: publishedSubscriptions,
  })
}
