import { boundedText } from '../../../outbound/bounded-body'
import type { OptionStore } from '../../../options/store'
import { openSecretOption } from '../../../options/secret-options'
import type { Outbound } from '../../../outbound/fetch'
import { oauthError } from '../errors'

const TIMEOUT_MS = 5_000
const MAX_ANSWER_BYTES = 16 * 1024

export interface WeChatDeps {
  options: Pick<OptionStore, 'get'>
  cryptoSecret: string
  outbound: Pick<Outbound, 'fetch'>
}

/** WeChat sign-in is on: its switch, the server's address and its token are all set. */
export const wechatOn = (options: Pick<OptionStore, 'get'>) =>
  options.get<boolean>('WeChatAuthEnabled') && options.get<string>('WeChatServerAddress') !== '' && options.get<string>('WeChatServerToken') !== ''

const unreachable = (why: string) => oauthError(502, 'wechat_server_failed', `the WeChat server could not be asked (${why}): try again later`)

/**
 * The WeChat account (its openid) a code stands for, asked of the WeChat server as new-api does:
 * `GET <WeChatServerAddress>/api/wechat/user?code=…` with the server's token as `Authorization`, answered
 * `{success, message, data: "<openid>"}`. Through the outbound guard; the answer is bounded.
 */
export async function wechatIdByCode(deps: WeChatDeps, code: string): Promise<string> {
  if (!deps.options.get<boolean>('WeChatAuthEnabled')) throw oauthError(403, 'oauth_disabled', 'sign-in with WeChat is not enabled on this instance')
  const address = deps.options.get<string>('WeChatServerAddress')
  const token = await openSecretOption(deps.cryptoSecret, deps.options, 'WeChatServerToken').catch(() => '')
  if (!address || !token) throw oauthError(400, 'oauth_not_configured', 'sign-in with WeChat has no server address or token yet: root sets them in Settings')
  let answer: { success?: unknown; message?: unknown; data?: unknown }
  try {
    const response = await deps.outbound.fetch(`${address}/api/wechat/user?code=${encodeURIComponent(code)}`, {
      headers: { authorization: token, accept: 'application/json' },
      signal: AbortSignal.timeout(TIMEOUT_MS),
    })
    const text = await boundedText(response, MAX_ANSWER_BYTES)
    if (text === undefined) throw new Error('its answer is too large')
    if (!response.ok) throw new Error(`it answered HTTP ${response.status}`)
    answer = JSON.parse(text) as typeof answer
  } catch (error) {
    throw unreachable(error instanceof SyntaxError ? 'its answer is not JSON' : (error as Error).message)
  }
  const id = typeof answer?.data === 'string' ? answer.data : ''
  if (answer?.success !== true || !id) throw oauthError(400, 'wechat_code_invalid', 'this WeChat code is wrong or has expired: send the official account a new request and type the new code')
  if (!/^[A-Za-z0-9_-]{1,128}$/.test(id)) throw unreachable('its answer is not a WeChat account id')
  return id
}
