import type { Provider } from './types'

/**
 * Coze (new-api type 49): a bot's chat through API v3. The key is a personal access token (or a service token),
 * the bot id is the channel's `other` (as new-api keeps it) and goes as `bot_id`; the channel's model names are
 * labels. The conversation goes as `additional_messages`, always streamed (protocols/coze). Coze's international
 * site: base URL `https://api.coze.com`.
 */
export const coze: Provider = {
  type: 49,
  id: 'coze',
  name: 'Coze',
  protocols: ['coze'],
  endpoints: { coze: { path: '/v3/chat' } },
  defaultBaseUrl: 'https://api.coze.cn',
  auth: 'bearer',
  keyRequired: true,
  testModel: 'coze-bot',
  models: ['coze-bot'],
  quirks: {},
  otherField: { meaning: 'the bot id (from the bot\'s URL in Coze)', required: true },
  otherInBody: 'bot_id',
  note: 'A bot per channel (its id in other): function tools and system prompts are not sent (the bot has its own).',
}
