/**
 * Round robin over each channel's keys, per channel, in memory. A key the upstream called dead (401, 403,
 * no credit) is skipped from then on, so one revoked key of a pool does not take the channel down; the
 * health tracker disables the channel only when none is left. Dead keys are remembered by value (an edit
 * that reorders the keys keeps them), in memory: a restart tries them again, and so does a channel test
 * that finds one working (`key-verdicts.ts`).
 */
export function createKeyRotation() {
  const next = new Map<number, number>()
  const dead = new Map<number, Set<string>>()

  return {
    /** The next live key of the channel ('' when it has none), advancing its turn. */
    take(channelId: number, keys: readonly string[]): { key: string; index: number } {
      if (keys.length === 0) return { key: '', index: -1 }
      let skip = dead.get(channelId)
      if (skip && keys.every((k) => skip!.has(k))) {
        // every key dead: the channel was disabled for it, so being asked again means it was re-enabled
        dead.delete(channelId)
        skip = undefined
      }
      const turn = next.get(channelId) ?? 0
      let index = turn % keys.length
      while (skip?.has(keys[index]!)) index = (index + 1) % keys.length
      next.set(channelId, (index + 1) % keys.length)
      return { key: keys[index]!, index }
    },
    /** Stop using `key` of the channel; returns how many of `keys` are still live. */
    markDead(channelId: number, keys: readonly string[], key: string): number {
      let set = dead.get(channelId)
      if (!set) dead.set(channelId, (set = new Set()))
      set.add(key)
      return keys.filter((k) => !set.has(k)).length
    },
    /** True when `key` of the channel is out of the rotation. */
    isDead(channelId: number, key: string): boolean {
      return dead.get(channelId)?.has(key) ?? false
    },
    /** Put `key` back into the channel's rotation (a test found it working); true when it was out. */
    revive(channelId: number, key: string): boolean {
      return dead.get(channelId)?.delete(key) ?? false
    },
    /** Forget a channel's turn and dead keys (it was deleted). */
    forget(channelId: number): void {
      next.delete(channelId)
      dead.delete(channelId)
    },
  }
}

export type KeyRotation = ReturnType<typeof createKeyRotation>
