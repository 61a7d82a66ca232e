import type { Provider } from './types'

/** Midjourney's actions, priced per task by new-api's ModelPrice names (a channel lists those it serves). */
const MIDJOURNEY_MODELS = [
  'mj_imagine', 'mj_variation', 'mj_reroll', 'mj_upscale', 'mj_blend', 'mj_describe', 'mj_shorten', 'mj_modal', 'mj_zoom', 'mj_custom_zoom',
  'mj_pan', 'mj_high_variation', 'mj_low_variation', 'mj_inpaint', 'mj_upload',
] as const

/**
 * Midjourney through a midjourney-proxy (novicezk/midjourney-proxy and its Plus fork): tasks submitted at
 * `/mj/submit/…` with the key in `mj-api-secret`, then polled (src/tasks/). No chat protocol: only `/mj/…` routes here.
 */
export const midjourney: Provider = {
  type: 2,
  id: 'midjourney',
  name: 'Midjourney Proxy',
  protocols: [],
  endpoints: {},
  tasks: 'midjourney',
  defaultBaseUrl: '',
  auth: 'bearer',
  keyRequired: false,
  testModel: 'mj_imagine',
  models: MIDJOURNEY_MODELS,
  quirks: {},
  note: 'A midjourney-proxy serves Midjourney tasks (/mj/submit/…, polled by the gateway); the channel test does not apply.',
}

/** midjourney-proxy-plus: the same API (its own base URL), new-api's type 5. */
export const midjourneyPlus: Provider = { ...midjourney, type: 5, id: 'midjourney-plus', name: 'Midjourney Proxy Plus' }
