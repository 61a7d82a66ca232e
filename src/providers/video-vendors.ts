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

/** Jimeng (即梦, new-api's type 51) on Volcengine's visual API; the key is `accessKey|secretKey` (each call signed). */
export const jimeng: Provider = {
  ...VIDEO_CHANNEL,
  type: 51,
  id: 'jimeng',
  name: 'Jimeng',
  videos: 'jimeng',
  defaultBaseUrl: 'https://visual.volcengineapi.com',
  testModel: 'jimeng_vgfm_t2v_l20',
  models: ['jimeng_vgfm_t2v_l20', 'jimeng_v30', 'jimeng_v30_pro'],
  note: 'Videos through /v1/videos (polled by the gateway); the key is accessKey|secretKey (Volcengine signature); the channel test does not apply.',
}

/** Vidu (new-api's type 52): text, image, first-and-last-frame and reference videos; the key as `Token`. */
export const vidu: Provider = {
  ...VIDEO_CHANNEL,
  type: 52,
  id: 'vidu',
  name: 'Vidu',
  videos: 'vidu',
  defaultBaseUrl: 'https://api.vidu.cn',
  testModel: 'viduq1',
  models: ['viduq2', 'viduq1', 'vidu2.0', 'vidu1.5'],
  note: 'Videos through /v1/videos (polled by the gateway); the channel test does not apply.',
}
