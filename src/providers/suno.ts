import type { Provider } from './types'

/**
 * Suno through a Suno API proxy (new-api's SunoAPI type): songs and lyrics submitted at `/suno/submit/{music|lyrics}`
 * with a Bearer key, polled at `/suno/fetch` (src/tasks/). Priced per task: `suno_music`, `suno_lyrics`.
 */
export const suno: Provider = {
  type: 36,
  id: 'suno',
  name: 'Suno API',
  protocols: [],
  endpoints: {},
  tasks: 'suno',
  defaultBaseUrl: '',
  auth: 'bearer',
  keyRequired: true,
  testModel: 'suno_music',
  models: ['suno_music', 'suno_lyrics'],
  quirks: {},
  note: 'A Suno API proxy serves song and lyrics tasks (/suno/…, polled by the gateway); the channel test does not apply.',
}
