/** Round robin over each channel's keys: several keys are used in turn, per channel, in memory. */
export function createKeyRotation() {
  const next = new Map<number, number>()
  return {
    /** The next key of the channel ('' when it has none), advancing its turn. */
    take(channelId: number, keys: readonly string[]): { key: string; index: number } {
      if (keys.length === 0) return { key: '', index: -1 }
      const turn = next.get(channelId) ?? 0
      const index = turn % keys.length
      next.set(channelId, (index + 1) % keys.length)
      return { key: keys[index]!, index }
    },
    forget: (channelId: number) => void next.delete(channelId),
  }
}

export type KeyRotation = ReturnType<typeof createKeyRotation>
