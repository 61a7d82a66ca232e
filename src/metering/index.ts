import type { Repos } from '../db/repos'
import type { Meter } from '../relay/meter/meter'
import type { OptionStore } from '../options/store'
import type { RelayCall, RelayOutcome } from '../relay/types'
import { createLogWriter, type LogWriterOptions } from './log-writer'
import type { Coordination } from '../coord'
import { logRefusal, type Refusal } from './refusal'
import { reserve } from './reserve'
import { createRetentionJob } from './retention'
import { settle, type SettleDeps } from './settle'
import { topUp } from './top-up'
import type { Usage } from '../ir'
import type { Reservation } from './reserve'

export type { Refusal } from './refusal'

/**
 * Prices, quota, rate limits and usage logs, hung on the relay engine's two hooks: `reserve` before the
 * first upstream attempt and `settle` once the request is over (failures included).
 */
export function createMetering(deps: { options: OptionStore; repos: Repos; coord: Coordination; clock?: { now(): number }; onCharged?: SettleDeps['onCharged'] }, writerOptions?: LogWriterOptions) {
  const logs = createLogWriter(deps.repos, writerOptions)
  // quota deltas ride with the next batch of log rows
  deps.repos.quota.onDirty(logs.wake)
  const retention = createRetentionJob({ options: deps.options, logs: deps.repos.logs })
  const reserveDeps = { ...deps, settlePending: () => logs.flush() }
  const settleDeps = { ...deps, logs }
  // settlements still running, so a stop writes their rows too
  let settling = 0
  let waiters: (() => void)[] = []
  const settledAll = (): Promise<void> => (settling === 0 ? Promise.resolve() : new Promise<void>((resolve) => waiters.push(resolve)))
  return {
    logs,
    retention,
    reserve: (meter: Meter, input: RelayCall, group: string) => reserve(reserveDeps, meter, input, group),
    topUp: (reservation: unknown, input: RelayCall, usage: Usage) => topUp(deps, reservation as Reservation, { userId: input.user.id, tokenId: input.token.id }, usage),
    async settle(outcome: RelayOutcome) {
      settling++
      try {
        return await settle(settleDeps, outcome)
      } finally {
        if (--settling === 0) {
          const waiting = waiters
          waiters = []
          for (const resolve of waiting) resolve()
        }
      }
    },
    /** Resolves once no settlement is running (on PostgreSQL a settlement awaits its round trip after the response). */
    settledAll,
    /** the error row of a request refused before `reserve` succeeded (settle logs all the others) */
    refused: (refusal: Refusal) => logRefusal({ options: deps.options, logs }, refusal),
    /** Graceful stop: no more scheduled work (retention runs as one of `deps.jobs`, stopped here too), the running settlements done, every queued log row written, the writers ended. */
    async stop(): Promise<void> {
      retention.stop()
      await settledAll()
      await logs.flush()
      await deps.repos.close()
    },
  }
}

export type Metering = ReturnType<typeof createMetering>
