import { GatewayError } from '../errors'
import { boundedText, parseJson } from '../outbound/bounded-body'
import { CODEX_BASE_URL } from '../providers/codex'
import { joinUrl } from '../providers/url'
import { codexChannel, codexKeyOf, refreshCodexChannel, type CodexPorts } from './credentials'

const USAGE_PATH = '/backend-api/wham/usage'
const USAGE_TIMEOUT_MS = 15_000
const USAGE_BODY_BYTES = 256 * 1024

export interface CodexUsage {
  /** the upstream's status: 2xx is a reading */
  status: number
  /** its JSON (plan type, the 5-hour and weekly windows' used percent and resets), or its text */
  body: unknown
}

/**
 * The subscription's rate-limit windows as Codex's /status reads them (the ChatGPT backend's `wham/usage`). A
 * refused token (401/403) is refreshed once under the channel's lease and asked again, as new-api does.
 */
export async function codexUsage(ports: CodexPorts, id: number): Promise<CodexUsage> {
  const channel = codexChannel(ports, id)
  const key = codexKeyOf(channel)
  const url = joinUrl(channel.baseUrl || CODEX_BASE_URL, USAGE_PATH)
  const first = await usageCall(ports, url, key.access_token, key.account_id)
  if ((first.status !== 401 && first.status !== 403) || !key.refresh_token) return first
  const { key: fresh } = await refreshCodexChannel(ports, id)
  return usageCall(ports, url, fresh.access_token, fresh.account_id)
}

async function usageCall(ports: CodexPorts, url: string, token: string, account: string): Promise<CodexUsage> {
  let response: Response
  try {
    response = await ports.fetch(url, { headers: { authorization: `Bearer ${token}`, 'chatgpt-account-id': account, accept: 'application/json' }, signal: AbortSignal.timeout(USAGE_TIMEOUT_MS) })
  } catch (error) {
    throw new GatewayError(502, 'upstream_unreachable', `the ChatGPT backend could not be reached: ${(error as Error).message}`)
  }
  const text = await boundedText(response, USAGE_BODY_BYTES)
  if (text === undefined) throw new GatewayError(502, 'upstream_bad_answer', 'the usage answer is larger than 256 KB')
  return { status: response.status, body: parseJson(text) ?? text.slice(0, 500) }
}
