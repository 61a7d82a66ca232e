export const videos = {
  'videos.openVideo': 'Open video',
} as const
