import type { AffinityCache, AffinityEntry } from '../../../coord/affinity-types'
import { sha256 } from '../../../crypto/sha256'
import type { OptionStore } from '../../../options/store'
import type { RouteCandidate } from '../plan'
import { affinityApplies } from './affinity-policy'
import type { SessionIdentity } from './session-identity'

export interface AffinityInput {
  cache: AffinityCache
  options: Pick<OptionStore, 'get'>
  /** true when the relay skips this key of the channel (an upstream called it dead) */
  keyOutOfRotation(channelId: number, key: string): boolean
}

/** One request's part in its session: the pinned channel and key first, and where it was served remembered. */
export interface SessionTurn {
  readonly rule: string
  /** the session was pinned before this turn */
  readonly pinned: boolean
  /** the candidates with the pinned channel first, on its pinned key when that is still in rotation */
  order(candidates: RouteCandidate[]): RouteCandidate[]
  /** the attempt that answered: the session sticks there for another TTL (a failover moves it) */
  served(candidate: RouteCandidate): void
}

export type SessionAffinity = ReturnType<typeof createSessionAffinity>

/**
 * Session affinity: a coding agent resends the same long prefix every turn, which the upstream's prompt cache
 * makes cheap only when every turn reaches the same account. A session (what the client names, scoped to the API
 * key, its group and the model) is pinned to the channel and key that answered it last, for a TTL renewed by each
 * turn, in the nodes' shared cache (coord (h)).
 */
export function createSessionAffinity(input: AffinityInput) {
  return {
    /** Whether affinity is on for this group and model: when not, the engine neither reads the session nor awaits `open`. */
    applies: (group: string, model: string): boolean => affinityApplies(input.options, group, model),
    async open(tokenId: number, group: string, model: string, identity: SessionIdentity | undefined): Promise<SessionTurn | undefined> {
      if (!identity || !affinityApplies(input.options, group, model)) return undefined
      const key = `${identity.rule}:t${tokenId}:${sha256(`${group}\u0000${model}\u0000${identity.id}`).slice(0, 32)}`
      const entry = await input.cache.get(key).catch(() => undefined)
      return turn(input, identity.rule, key, entry)
    },
    /** `entry`'s channel first, on its key when still in rotation (a stored response's home: relay/responses) */
    first: (candidates: RouteCandidate[], entry: AffinityEntry): RouteCandidate[] => pinnedFirst(input, candidates, entry),
  }
}

function pinnedFirst(input: AffinityInput, candidates: RouteCandidate[], entry: AffinityEntry): RouteCandidate[] {
  const at = candidates.findIndex((c) => c.channel.id === entry.channelId)
  if (at < 0) return candidates // the channel is gone, disabled or no longer serves the model: a new home
  const pinned = onPinnedKey(input, candidates[at]!, entry.keyFp)
  return [pinned, ...candidates.slice(0, at), ...candidates.slice(at + 1)]
}

function turn(input: AffinityInput, rule: string, key: string, entry: AffinityEntry | undefined): SessionTurn {
  return {
    rule,
    pinned: entry !== undefined,
    order: (candidates) => (entry ? pinnedFirst(input, candidates, entry) : candidates),
    served(candidate) {
      const ttlMs = input.options.get<number>('channel_affinity_setting.default_ttl_seconds') * 1000
      const next = { channelId: candidate.channel.id, keyFp: keyFingerprint(candidate.key) }
      input.cache.set(key, next, ttlMs, input.options.get<number>('channel_affinity_setting.max_entries'))
    },
  }
}

/** The candidate on the session's key, when the channel still has it in rotation; else as planned (its next key). */
function onPinnedKey(input: AffinityInput, candidate: RouteCandidate, keyFp: string): RouteCandidate {
  const keys = candidate.channel.keys
  if (keys.length < 2) return candidate
  const index = fingerprints(keys).indexOf(keyFp)
  if (index < 0 || input.keyOutOfRotation(candidate.channel.id, keys[index]!)) return candidate
  return { channel: candidate.channel, upstreamModel: candidate.upstreamModel, key: keys[index]!, keyIndex: index }
}

export const keyFingerprint = (key: string): string => sha256(key).slice(0, 16)

/** Each key list's fingerprints, made once per list (a channel edit makes a new list). */
const fingerprintsOf = new WeakMap<readonly string[], string[]>()
function fingerprints(keys: readonly string[]): string[] {
  let fps = fingerprintsOf.get(keys)
  if (!fps) fingerprintsOf.set(keys, (fps = keys.map(keyFingerprint)))
  return fps
}
