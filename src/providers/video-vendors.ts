import type { Provider } from './types'

/** What every video channel shares: no chat protocol; its models are priced per task (ModelPrice) and polled (src/tasks/video/). */
const VIDEO_CHANNEL = { protocols: [], endpoints: {}, auth: 'bearer', keyRequired: true, quirks: {} } as const

/** Sora on OpenAI (new-api's type 55): OpenAI's `/v1/videos`, with an OpenAI key. */
export const sora: Provider = {
  ...VIDEO_CHANNEL,
  type: 55,
  id: 'sora',
  name: 'Sora',
  videos: 'sora',
  defaultBaseUrl: 'https://api.openai.com',
  testModel: 'sora-2',
  models: ['sora-2', 'sora-2-pro'],
  note: 'Videos through /v1/videos (polled by the gateway); the channel test does not apply.',
}

/** Kling (new-api's type 50): text and image to video; the key is `accessKey|secretKey` (a JWT per call). */
export const kling: Provider = {
  ...VIDEO_CHANNEL,
  type: 50,
  id: 'kling',
  name: 'Kling',
  videos: 'kling',
  defaultBaseUrl: 'https://api.klingai.com',
  testModel: 'kling-v1',
  models: ['kling-v1', 'kling-v1-6', 'kling-v2-master', 'kling-v2-1-master', 'kling-v2-5-turbo', 'kling-v2-6'],
  note: 'Videos through /v1/videos and /kling/v1/videos/… (polled by the gateway); the key is accessKey|secretKey; the channel test does not apply.',
}
