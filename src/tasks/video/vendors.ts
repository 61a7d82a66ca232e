import type { Channel } from '../../relay/routing'
import { jimengVendor } from './jimeng'
import { klingVendor } from './kling'
import { soraVendor } from './sora'
import type { VideoVendor } from './types'
import { viduVendor } from './vidu'

const VENDORS: Record<string, VideoVendor> = { sora: soraVendor, kling: klingVendor, jimeng: jimengVendor, vidu: viduVendor }

/** The video vendor a task platform names (`sora`, `kling` …), or undefined for Midjourney, Suno and the unknown. */
export function videoVendorOf(platform: string): VideoVendor | undefined {
  return Object.hasOwn(VENDORS, platform) ? VENDORS[platform] : undefined
}

/** The video vendor a channel's type speaks, if any. */
export function vendorServing(channel: Pick<Channel, 'provider'>): VideoVendor | undefined {
  const id = channel.provider.videos
  return id ? videoVendorOf(id) : undefined
}
