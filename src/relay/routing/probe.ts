import { ChannelStatus } from '../../db/repos/channels'
import type { ChannelStore } from './channel-store'
import type { CheckChannel } from './channel-check'
import type { HealthTracker } from './health'

export interface ProbePass {
  tested: number
  reenabled: number[]
}

/**
 * Periodically tests auto-disabled (status 3) channels, every key of them, and re-enables those where a key
 * works again (keys still dead stay out of the rotation). Manually disabled channels (status 2) are left
 * alone. `runOnce()` lets tests drive one pass.
 */
export function createChannelProbe(store: ChannelStore, health: HealthTracker, intervalSeconds: () => number, checkChannel: CheckChannel) {
  let timer: ReturnType<typeof setTimeout> | undefined
  let running: Promise<ProbePass> | undefined

  async function pass(): Promise<ProbePass> {
    await store.ready
    const dead = store.all().filter((c) => c.status === ChannelStatus.autoDisabled)
    const reenabled: number[] = []
    for (const channel of dead) {
      const check = await checkChannel(channel)
      await store.recordTest(channel.id, check.result)
      if (!check.anyKeyWorks) continue
      health.reset(channel.id)
      const changed = await store.setStatus([channel.id], ChannelStatus.enabled)
      if (changed.length > 0) {
        reenabled.push(channel.id)
        console.log(`channel ${channel.id} (${channel.name}) works again: re-enabled`)
      }
    }
    return { tested: dead.length, reenabled }
  }

  function schedule(): void {
    const seconds = Math.max(10, intervalSeconds())
    timer = setTimeout(() => {
      void runOnce()
        .catch((error: unknown) => console.error('channel probe failed:', error))
        .finally(() => timer && schedule())
    }, seconds * 1000)
    timer.unref?.()
  }

  /** One pass now; concurrent calls share the pass in progress. */
  function runOnce(): Promise<ProbePass> {
    running ??= pass().finally(() => (running = undefined))
    return running
  }

  return {
    runOnce,
    start(): void {
      if (!timer) schedule()
    },
    stop(): void {
      if (timer) clearTimeout(timer)
      timer = undefined
    },
    get running(): boolean {
      return timer !== undefined
    },
  }
}
