import type { Channel } from './channel'
import type { KeyRotation } from './key-rotation'
import { mapModel } from './model-mapping'

export type Random = () => number

/** One channel to try, in failover order. */
export interface RouteCandidate {
  channel: Channel
  /** The requested model after the channel's model_mapping. */
  upstreamModel: string
  /**
   * The channel's next key in rotation. Taken on first read (then fixed for this candidate), so
   * fallbacks that are never tried do not skip a turn.
   */
  readonly key: string
  readonly keyIndex: number
}

class Candidate implements RouteCandidate {
  #taken: { key: string; index: number } | undefined
  readonly #rotation: KeyRotation

  constructor(
    readonly channel: Channel,
    readonly upstreamModel: string,
    rotation: KeyRotation,
  ) {
    this.#rotation = rotation
  }

  get key(): string {
    return this.#take().key
  }

  get keyIndex(): number {
    return this.#take().index
  }

  #take() {
    return (this.#taken ??= this.#rotation.take(this.channel.id, this.channel.keys))
  }
}

/** A channel with the model it is asked for after its model_mapping. */
interface Entry {
  channel: Channel
  model: string
}

/** One priority's channels. */
interface Tier {
  weighted: Entry[]
  /** weight 0: after every weighted channel of the same priority */
  backups: Entry[]
}

/**
 * What does not change between requests for one (group, model): channels grouped by priority (highest
 * first), split into weighted and backups, with their mapped model. Built once per routing-index entry.
 */
export interface RoutePlan {
  tiers: Tier[]
  /** set when one channel serves the pair (the common case): nothing to shuffle */
  only?: Entry[]
}

export function routePlan(channels: readonly Channel[], model: string): RoutePlan {
  const byPriority = new Map<number, Tier>()
  for (const channel of channels) {
    let tier = byPriority.get(channel.priority)
    if (!tier) byPriority.set(channel.priority, (tier = { weighted: [], backups: [] }))
    ;(channel.weight > 0 ? tier.weighted : tier.backups).push({ channel, model: mapModel(channel.modelMapping, model) })
  }
  const tiers = [...byPriority.keys()].sort((a, b) => b - a).map((priority) => byPriority.get(priority)!)
  return channels.length === 1 ? { tiers, only: [...tiers[0]!.weighted, ...tiers[0]!.backups] } : { tiers }
}

/** Candidates of a plan in failover order; only the order and the key turn are per request. */
export function planCandidates(plan: RoutePlan, rotation: KeyRotation, random: Random = Math.random): RouteCandidate[] {
  const out: RouteCandidate[] = []
  for (const entry of orderPlan(plan, random)) out.push(new Candidate(entry.channel, entry.model, rotation))
  return out
}

/**
 * Failover order: highest priority first; within one priority a weighted random order (sampling
 * without replacement, chance to come first ∝ weight). Weight 0 means "backup within its priority":
 * such channels come after every weighted one of the same priority, in uniform random order (so if all
 * have weight 0 the order is uniform). Lower priorities follow.
 */
function orderPlan(plan: RoutePlan, random: Random): Entry[] {
  if (plan.only) {
    random() // the draw a sort of one would take: seeded orders stay as they were
    return plan.only
  }
  const out: Entry[] = []
  for (const tier of plan.tiers) {
    out.push(...sortByKey(tier.weighted, (e) => -Math.log(1 - random()) / e.channel.weight))
    out.push(...sortByKey(tier.backups, () => random()))
  }
  return out
}

function sortByKey<T>(items: T[], keyOf: (item: T) => number): T[] {
  return items
    .map((item) => ({ item, key: keyOf(item) }))
    .sort((a, b) => a.key - b.key)
    .map((entry) => entry.item)
}

/** Small seeded PRNG (mulberry32) for reproducible routing in tests. */
export function seededRandom(seed: number): Random {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}
