import type { videos as en } from '../en/videos'

export const videos: Record<keyof typeof en, string> = {
  'videos.openVideo': '打开视频',
}
