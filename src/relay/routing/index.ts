import type { ChannelRepo } from '../../db/repos'
import type { Channel } from './channel'
import { createSecretBox } from '../../crypto/secret-box'
import type { OptionStore } from '../../options/store'
import { createChannelCheck } from './channel-check'
import { createChannelStore } from './channel-store'
import type { Fetch } from './channel-test'
import type { OutboundWebSocket } from '../../outbound/websocket'
import { type AutoDisabledListener, createHealthTracker, type FailureCounts } from './health'
import { createKeyRotation, type KeyChangeListener } from './key-rotation'
import { planCandidates, routePlan, type Random, type RouteCandidate, type RoutePlan } from './plan'
import { createChannelProbe } from './probe'

export type { Channel } from './channel'
export type { NewChannelInput } from './channel-store'
export type { RouteCandidate } from './plan'
export { seededRandom } from './plan'
export { isFatalFailure } from './health'

export interface RoutingInput {
  repo: ChannelRepo
  cryptoSecret: string
  options: Pick<OptionStore, 'get'>
  /** consecutive failures per channel, shared by the nodes (`deps.coord`) */
  failureCounts: FailureCounts
  /** told when this node takes a key of a pool out of the rotation or puts it back (src/cluster tells the others) */
  onKeyChange?: KeyChangeListener
  /** told when this node auto-disabled a channel (notifications: src/notify) */
  onAutoDisabled?: AutoDisabledListener
  random?: Random
  /** how the channel test and fetch_models dial (deps.outbound: the SSRF guard, no redirect followed) */
  fetch: Fetch
  /** how the channel test dials a provider reached over a WebSocket (Spark): deps.outbound's guarded one */
  webSocket?: OutboundWebSocket
}

/**
 * Everything the relay needs to pick channels, built once per app:
 * - `channels`: the in-memory channel cache + all channel writes (keys sealed, abilities kept in step)
 * - `planRoute(group, model)`: ordered failover candidates, each with its mapped model and next key
 * - `recordResult(channelId, outcome)`: health tracking (failures counted across nodes) and auto-disable
 * - `checkChannel(channel, model?)`: the channel test, every key, its verdicts fed to the key rotation
 * - `probe`: periodic re-test of auto-disabled channels (start/stop/runOnce)
 */
export function createRouting(input: RoutingInput) {
  // what routing remembers per channel (failure counts, key turns, dead keys) goes with a deleted channel
  const channels = createChannelStore(input.repo, createSecretBox(input.cryptoSecret), {
    removed: (ids) => {
      for (const id of ids) {
        rotation.forget(id)
        health.reset(id)
      }
    },
  })
  const rotation = createKeyRotation(input.onKeyChange)
  const health = createHealthTracker(channels, () => input.options.get<number>('ChannelFailureThreshold'), input.failureCounts, rotation, input.onAutoDisabled)
  const upstreamFetch = input.fetch
  const checkChannel = createChannelCheck(rotation, upstreamFetch, input.webSocket)
  const probe = createChannelProbe(channels, health, () => input.options.get<number>('ChannelProbeIntervalSeconds'), checkChannel)
  let random: Random = input.random ?? Math.random
  let loaded = false
  void channels.ready.then(() => (loaded = true), () => {})
  // Keyed by the index's channel list for (group, model): a channel write rebuilds the index with new lists,
  // so a plan never outlives the channels it was made from.
  const plans = new WeakMap<readonly Channel[], RoutePlan>()

  return {
    channels,
    health,
    probe,
    checkChannel,
    /** `fetch` for calls to a channel's upstream outside the relay (fetch_models) */
    upstreamFetch,

    /** Ordered candidates for `model` in `group`: enabled channels only, best first. Empty = no channel. */
    async planRoute(group: string, model: string): Promise<RouteCandidate[]> {
      if (!loaded) await channels.ready
      const list = channels.candidates(group, model)
      if (list.length === 0) return []
      let plan = plans.get(list)
      if (!plan) plans.set(list, (plan = routePlan(list, model)))
      return planCandidates(plan, rotation, random)
    },

    recordResult: health.recordResult,

    /** True when the relay skips `key` of the channel (an upstream called it dead); for the console's key list. */
    keyOutOfRotation: (channelId: number, key: string): boolean => rotation.isDead(channelId, key),
    /** Another node took `key` out of the channel's rotation (`dead`) or put it back. */
    applyKeyChange: (channelId: number, key: string, dead: boolean): void => void rotation.apply(channelId, key, dead),

    /** Tests: make the weighted order reproducible. */
    setRandom(next: Random): void {
      random = next
    },
  }
}

export type Routing = ReturnType<typeof createRouting>
