import { parseSparkKey } from './spark/sign'
import { sparkSocketCall } from './spark/socket-call'
import type { Provider } from './types'

/**
 * iFlytek Spark (new-api type 18, Xunfei): its WebSocket chat API. The key is `APPID|APISecret|APIKey`; each call
 * dials `wss://spark-api.xf-yun.com/<version>/chat` with an HMAC-signed query (spark/sign.ts). The version comes
 * from the model name (`SparkDesk-v3.5`), else the channel's `other`, else v1.1; it picks the domain (Lite, Pro,
 * Max, 4.0 Ultra). Spark answers in frames, carried as a stream (protocols/spark).
 */
export const spark: Provider = {
  type: 18,
  id: 'spark',
  name: 'iFlytek Spark',
  protocols: ['spark'],
  endpoints: { spark: { path: '/{apiVersion}/chat' } },
  defaultBaseUrl: 'https://spark-api.xf-yun.com',
  auth: 'bearer',
  keyRequired: true,
  testModel: 'SparkDesk-v3.5',
  models: ['SparkDesk', 'SparkDesk-v1.1', 'SparkDesk-v2.1', 'SparkDesk-v3.1', 'SparkDesk-v3.5', 'SparkDesk-v4.0'],
  quirks: {},
  otherField: { meaning: 'the API version (v1.1, v3.1, v3.5, v4.0) for model names that carry none', required: false },
  checkKey: (key) => void parseSparkKey(key),
  socketCall: sparkSocketCall,
  note: 'Over Spark\'s WebSocket API: text turns only (no function tools, no images); the key is APPID|APISecret|APIKey.',
}
