import type { Coordination, TopicEvent } from '../coord/types'
import type { TokenRepo, UserRepo } from '../db/repos'
import type { SubscriptionRepo } from '../db/repos/subscriptions'
import { keyDigest, parseIds, parseKeyChange, parseSession, Topic, type TopicName } from './topics'

/** What a node holds in memory that another node's writes make stale. */
export interface CacheTargets {
  users: Pick<UserRepo, 'forget' | 'forgetAll'>
  tokens: Pick<TokenRepo, 'forget' | 'forgetUser' | 'forgetAll'>
  /** who is known to hold no plan (a grant or purchase on another node publishes the user) */
  plans: Pick<SubscriptionRepo, 'forgetHolder'>
  /** the routing cache (channels with decrypted keys, the index of abilities); `ids` undefined: all */
  channels: { reload(ids?: readonly number[]): Promise<void>; get(id: number): { keys: readonly string[] } | undefined }
  /** the key rotation of multi-key channels */
  keys: { applyKeyChange(channelId: number, key: string, dead: boolean): void }
  options: { reload(): Promise<void> }
  sessions: { remember(sessionId: string, expiresAt: number): void; reload(): Promise<void> }
}

type Apply = (payload: string | null) => void | Promise<void>

/**
 * The one place that subscribes: each topic's event (src/cluster/topics.ts) drops or reloads what it names, or
 * everything of its kind when the payload is null (the version check found a missed message, or Redis came back).
 * The node's own writes are skipped (it refreshed itself when it wrote). Subscribe before loading the caches and
 * `attach` them once loaded: what another node writes in between is held and applied then, never lost. The
 * subscriptions end with `coord.close()`.
 */
export async function subscribeInvalidations(coord: Pick<Coordination, 'subscribe'>): Promise<{ attach(targets: CacheTargets): void }> {
  let appliers: Record<TopicName, Apply> | undefined
  let held: TopicEvent[] = []
  const apply = (event: TopicEvent): void => {
    if (event.fromSelf) return
    if (!appliers) return void held.push(event)
    const run = appliers[event.topic as TopicName]
    if (run) void Promise.resolve(event.payload).then(run).catch((error: unknown) => console.error(`coordination: cannot apply ${event.topic}:`, error))
  }
  await Promise.all(Object.values(Topic).map((topic) => coord.subscribe(topic, apply)))
  return {
    attach(targets) {
      appliers = appliersFor(targets)
      for (const event of held) apply(event)
      held = []
    },
  }
}

function appliersFor(targets: CacheTargets): Record<TopicName, Apply> {
  const { users, tokens, plans, channels, keys, options, sessions } = targets
  return {
    [Topic.users]: (payload) => {
      if (payload === null) return void (users.forgetAll(), tokens.forgetAll(), plans.forgetHolder())
      // a token row carries nothing of its owner, but relay auth reads the owner beside it: both go
      for (const id of parseIds(payload)) users.forget(id), tokens.forgetUser(id), plans.forgetHolder(id)
    },
    [Topic.tokens]: (payload) => {
      if (payload === null) return tokens.forgetAll()
      for (const id of parseIds(payload)) tokens.forget(id)
    },
    [Topic.channels]: (payload) => channels.reload(payload === null ? undefined : parseIds(payload)),
    [Topic.options]: () => options.reload(),
    [Topic.sessions]: (payload) => {
      if (payload === null) return sessions.reload()
      const session = parseSession(payload)
      if (session) sessions.remember(session.sessionId, session.expiresAt)
    },
    // dead keys live in each node's memory only: a missed message is made good by the node's own next failure with that key
    [Topic.keys]: (payload) => {
      const change = payload === null ? undefined : parseKeyChange(payload)
      const key = change && channels.get(change.channelId)?.keys.find((k) => keyDigest(k) === change.digest)
      if (change && key !== undefined) keys.applyKeyChange(change.channelId, key, change.dead)
    },
  }
}
