import { openAiCompatible } from './openai-compatible'

/** Baidu Qianfan ModelBuilder v2 (new-api's "BaiduV2"): OpenAI-compatible under `/v2`, the `bce-v3/…` API key as Bearer. */
export const qianfan = openAiCompatible({
  type: 46,
  id: 'qianfan',
  name: 'Baidu Qianfan',
  defaultBaseUrl: 'https://qianfan.baidubce.com',
  chatPath: '/v2/chat/completions',
  testModel: 'ernie-speed-128k',
  models: ['ernie-4.5-turbo-128k', 'ernie-x1-turbo-32k', 'ernie-4.0-8k', 'ernie-speed-128k', 'ernie-lite-8k'],
})
