import type { Coordination } from '../../coord'
import { ChannelStatus } from '../../db/repos/channels'
import type { ChannelStore } from './channel-store'
import type { KeyRotation } from './key-rotation'

/** What one upstream attempt through a channel came to. `status` is the upstream HTTP status, if any. */
export type Outcome = { ok: true } | { ok: false; status?: number; message?: string; /** the key the attempt used */ key?: string }

export interface HealthVerdict {
  /** Consecutive failures so far (0 after a success). */
  failures: number
  /** True when this result auto-disabled the channel (status 3). */
  disabled: boolean
  /** True when it only took the failing key out of the channel's rotation (other keys are left). */
  keyDisabled?: boolean
  reason?: string
}

/**
 * Messages that mean the key or account is unusable, whatever the status code: waiting will not help.
 * Drawn from what OpenAI, Anthropic, Gemini and compatibles send (and new-api's auto-disable list).
 */
const FATAL_MESSAGES = [
  /invalid[ _-]?(x-)?api[ _-]?key/i,
  /incorrect api key/i,
  /api key (is )?(not valid|invalid|expired)/i,
  /invalid[ _]authentication|authentication_error/i,
  /insufficient[ _]quota|quota (has been )?(exhausted|exceeded)|exceeded your current quota/i,
  /credit balance is too low|insufficient (balance|credits?)|balance is insufficient/i,
  /account[ _](has been |is )?(deactivated|disabled|suspended|banned)/i,
  /organization has been disabled|billing[ _]not[ _]active|permission[ _]denied/i,
]

/** A failure that disables at once (when auto_ban): 401/403, or a known dead-key / no-money message. */
export function isFatalFailure(status: number | undefined, message = ''): boolean {
  if (status === 401 || status === 403) return true
  return FATAL_MESSAGES.some((pattern) => pattern.test(message))
}

/**
 * An upstream 4xx that is the request's fault, not the channel's (a malformed body, an unknown parameter, a context
 * too long): it must not count toward disabling the channel, or one client's broken requests could take it from
 * everyone. 401/403 (the key), 408 (the upstream timed out), 429 (the account's limits) and a fatal message (Gemini
 * says a bad key with a 400) are the channel's.
 */
function isRequestFault(status: number | undefined, message = ''): boolean {
  if (status === undefined || status < 400 || status >= 500) return false
  if (status === 401 || status === 403 || status === 408 || status === 429) return false
  return !isFatalFailure(status, message)
}

/** Told after this node's write auto-disabled a channel (never awaited; must not throw). */
export type AutoDisabledListener = (channelId: number, name: string, reason: string) => void

/** Where consecutive failures are counted: `deps.coord`, so every node's failures add up. */
export type FailureCounts = Pick<Coordination, 'channelFailure' | 'channelSuccess' | 'channelFailures'>

/**
 * Counts consecutive failures per channel, across nodes (`counts`). An auto_ban channel is set to status 3 (auto
 * disabled; its abilities disabled too) after `threshold()` consecutive failures, or at once on a fatal failure;
 * that is a channel write, which every node hears of (src/cluster). One ordinary error never disables a channel.
 * A success resets the count. The promise never rejects, so the relay may call it without awaiting.
 */
export function createHealthTracker(store: ChannelStore, threshold: () => number, counts: FailureCounts, rotation?: Pick<KeyRotation, 'markDead'>, onAutoDisabled?: AutoDisabledListener) {
  return {
    recordResult(channelId: number, outcome: Outcome): Promise<HealthVerdict> {
      if (!outcome.ok) return recordFailure(channelId, outcome)
      // every successful request comes here: no async call, no new promise (free unless a failure is known)
      counts.channelSuccess(channelId)
      return SUCCEEDED
    },

    /** The consecutive failures counted so far, on every node. */
    failures: (channelId: number): Promise<number> => counts.channelFailures(channelId),
    reset: (channelId: number) => counts.channelSuccess(channelId),
  }

  async function recordFailure(channelId: number, outcome: Extract<Outcome, { ok: false }>): Promise<HealthVerdict> {
    if (isRequestFault(outcome.status, outcome.message)) return NOT_COUNTED
    let count: number
    try {
      count = await counts.channelFailure(channelId)
    } catch (error) {
      console.error(`channel ${channelId}: failure not counted:`, error)
      return { failures: 0, disabled: false }
    }
    const channel = store.get(channelId)
    if (!channel || !channel.autoBan || channel.status !== ChannelStatus.enabled) return { failures: count, disabled: false }
    const fatal = isFatalFailure(outcome.status, outcome.message)
    if (!fatal && count < Math.max(1, threshold())) return { failures: count, disabled: false }
    const reason = fatal
      ? `upstream ${outcome.status ?? ''} ${outcome.message ?? ''}`.replace(/\s+/g, ' ').trim()
      : `${count} consecutive failures`
    // a dead key of a pool: only that key stops (new-api disables the whole channel for it)
    if (fatal && outcome.key && channel.keys.length > 1 && rotation) {
      const live = rotation.markDead(channelId, channel.keys, outcome.key)
      if (live > 0) {
        counts.channelSuccess(channelId)
        console.warn(`channel ${channelId} (${channel.name}): key ${channel.keys.indexOf(outcome.key) + 1} of ${channel.keys.length} disabled: ${reason}`)
        return { failures: 0, disabled: false, keyDisabled: true, reason }
      }
    }
    try {
      const changed = await store.setStatus([channelId], ChannelStatus.autoDisabled)
      if (changed.length > 0) {
        console.warn(`channel ${channelId} (${channel.name}) auto-disabled: ${reason}`)
        onAutoDisabled?.(channelId, channel.name, reason)
      }
      return { failures: count, disabled: changed.length > 0, reason }
    } catch (error) {
      // callers may fire and forget: a failed write is logged, never an unhandled rejection
      console.error(`channel ${channelId}: cannot auto-disable:`, error)
      return { failures: count, disabled: false, reason }
    }
  }
}

const SUCCEEDED: Promise<HealthVerdict> = Promise.resolve(Object.freeze({ failures: 0, disabled: false }))
const NOT_COUNTED: HealthVerdict = Object.freeze({ failures: 0, disabled: false })

export type HealthTracker = ReturnType<typeof createHealthTracker>
