import type { Usage } from '../../ir'

/** Images as metering's usage: the count in the meter's unit. */
export function imageUsage(images: number): Usage {
  return { input: { noCache: images, cacheRead: 0, cacheWrite: 0 }, output: { text: 0, reasoning: 0 } }
}
