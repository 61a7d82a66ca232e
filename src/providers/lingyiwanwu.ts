import { openAiCompatible } from './openai-compatible'

/** 01.AI (零一万物, new-api's "LingYiWanWu"): OpenAI-compatible at /v1, the key as Bearer. */
export const lingyiwanwu = openAiCompatible({
  type: 31,
  id: 'lingyiwanwu',
  name: '01.AI (LingYiWanWu)',
  defaultBaseUrl: 'https://api.lingyiwanwu.com',
  testModel: 'yi-lightning',
  models: ['yi-lightning', 'yi-large', 'yi-medium', 'yi-vision-v2'],
})
