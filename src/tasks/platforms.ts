import { midjourneyPlatform } from './midjourney'
import { sunoPlatform } from './suno'
import type { TaskPlatform } from './types'

const PLATFORMS: Record<string, TaskPlatform> = { midjourney: midjourneyPlatform, suno: sunoPlatform }

export function platformOf(id: string): TaskPlatform | undefined {
  return Object.hasOwn(PLATFORMS, id) ? PLATFORMS[id] : undefined
}
