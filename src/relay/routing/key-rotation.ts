/**
 * Round robin over each channel's keys, per channel, in memory. A key the upstream called dead (401, 403,
 * no credit) is skipped from then on, so one revoked key of a pool does not take the channel down; the
 * health tracker disables the channel only when none is left. Dead keys are remembered by value (an edit
 * that reorders the keys keeps them), in memory: a restart tries them again, and so does a channel test
 * that finds one working (`key-verdicts.ts`). A channel never holds more dead keys than it has keys: those it no
 * longer lists go at its next turn. Each change is told to `changed`, which other nodes hear of
 * (src/cluster); what they decided arrives through `apply`.
 */
export function createKeyRotation(changed: KeyChangeListener = () => {}) {
  const next = new Map<number, number>()
  const dead = new Map<number, Set<string>>()

  /** Put `key` in or out of the channel's rotation; true when that changed something. */
  function set(channelId: number, key: string, isDead: boolean): boolean {
    let keys = dead.get(channelId)
    if (!isDead) return keys?.delete(key) ?? false
    if (!keys) dead.set(channelId, (keys = new Set()))
    if (keys.has(key)) return false
    keys.add(key)
    return true
  }

  return {
    /** The next live key of the channel ('' when it has none), advancing its turn. */
    take(channelId: number, keys: readonly string[]): { key: string; index: number } {
      if (keys.length === 0) return { key: '', index: -1 }
      let skip = dead.get(channelId)
      // more dead than the channel has: some left it (an edit, another node's word); keep only its own
      if (skip && skip.size > keys.length) for (const k of skip) if (!keys.includes(k)) skip.delete(k)
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
      if (set(channelId, key, true)) changed(channelId, key, true)
      const out = dead.get(channelId)!
      return keys.filter((k) => !out.has(k)).length
    },
    /** True when `key` of the channel is out of the rotation. */
    isDead(channelId: number, key: string): boolean {
      return dead.get(channelId)?.has(key) ?? false
    },
    /** Put `key` back into the channel's rotation (a test found it working); true when it was out. */
    revive(channelId: number, key: string): boolean {
      if (!set(channelId, key, false)) return false
      changed(channelId, key, false)
      return true
    },
    /** What another node decided about `key` (the listener is not told: it came from there). */
    apply: set,
    /** Forget a channel's turn and dead keys (it was deleted). */
    forget(channelId: number): void {
      next.delete(channelId)
      dead.delete(channelId)
    },
  }
}

export type KeyRotation = ReturnType<typeof createKeyRotation>

/** Told when this node takes a key out of a channel's rotation (`dead`) or puts it back, so other nodes can follow. */
export type KeyChangeListener = (channelId: number, key: string, dead: boolean) => void
