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

/**
 * Failover order: highest priority first; within one priority a weighted random order (sampling
 * without replacement, chance to come first ∝ weight). Weight 0 means "backup within its priority":
 * such channels come after every weighted one of the same priority, in uniform random order (so if all
 * have weight 0 the order is uniform). Lower priorities follow.
 */
export function orderChannels(channels: readonly Channel[], random: Random = Math.random): Channel[] {
  const byPriority = new Map<number, Channel[]>()
  for (const c of channels) {
    const list = byPriority.get(c.priority)
    if (list) list.push(c)
    else byPriority.set(c.priority, [c])
  }
  const out: Channel[] = []
  for (const priority of [...byPriority.keys()].sort((a, b) => b - a)) {
    const tier = byPriority.get(priority)!
    const weighted = tier.filter((c) => c.weight > 0)
    const backups = tier.filter((c) => c.weight <= 0)
    out.push(...sortByKey(weighted, (c) => -Math.log(1 - random()) / c.weight))
    out.push(...sortByKey(backups, () => random()))
  }
  return out
}

export function planCandidates(channels: readonly Channel[], model: string, rotation: KeyRotation, random?: Random): RouteCandidate[] {
  return orderChannels(channels, random).map((c) => new Candidate(c, mapModel(c.modelMapping, model), rotation))
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
