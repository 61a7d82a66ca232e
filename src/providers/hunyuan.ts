import { BadRequestError } from '../errors'
import { tc3Authorization } from './signing/tc3'
import type { Provider } from './types'

const HUNYUAN_URL = 'https://hunyuan.tencentcloudapi.com'
const ACTION = 'ChatCompletions'
const VERSION = '2023-09-01'

/** new-api's Tencent key: `AppId|SecretId|SecretKey` (the AppId is not sent; the secret pair signs). */
function credentialsOf(key: string): { secretId: string; secretKey: string } {
  const parts = key.split('|').map((p) => p.trim())
  if (parts.length !== 3 || !/^\d+$/.test(parts[0]!) || !parts[1] || !parts[2]) {
    throw new BadRequestError('a Hunyuan key is AppId|SecretId|SecretKey (from the Tencent Cloud console)', 'key')
  }
  return { secretId: parts[1], secretKey: parts[2] }
}

/**
 * Tencent Hunyuan (new-api type 23, "Tencent"): `ChatCompletions` of Tencent Cloud API 3.0 (version 2023-09-01) at
 * the service root, each call signed with TC3-HMAC-SHA256 over its body (signing/tc3.ts) with the action, version
 * and timestamp in `X-TC-*` headers. Text chat, streamed or not; usage from `Usage`.
 */
export const hunyuan: Provider = {
  type: 23,
  id: 'hunyuan',
  name: 'Tencent Hunyuan',
  protocols: ['hunyuan'],
  endpoints: { hunyuan: { path: '/' } },
  connector: {
    async prepare(call) {
      const { secretId, secretKey } = credentialsOf(call.key)
      const url = new URL(call.baseUrl || HUNYUAN_URL)
      url.pathname = '/'
      const timestamp = Math.floor(Date.now() / 1000)
      const authorization = tc3Authorization({ secretId, secretKey, service: 'hunyuan', host: url.host, action: ACTION, timestamp, body: call.body })
      return {
        url: url.href,
        headers: { ...call.headers, 'content-type': 'application/json', authorization, 'x-tc-action': ACTION, 'x-tc-version': VERSION, 'x-tc-timestamp': String(timestamp) },
      }
    },
  },
  defaultBaseUrl: HUNYUAN_URL,
  auth: 'bearer',
  keyRequired: true,
  testModel: 'hunyuan-lite',
  models: ['hunyuan-turbos-latest', 'hunyuan-t1-latest', 'hunyuan-large', 'hunyuan-standard', 'hunyuan-lite'],
  quirks: {},
  checkKey: (key) => void credentialsOf(key),
  note: 'Key: AppId|SecretId|SecretKey. Text chat only (images and function tools are refused).',
}
