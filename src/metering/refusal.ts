import type { TokenRow, UserRow } from '../db/repos'
import { LogType, type NewLog } from '../db/repos/logs'
import type { OptionStore } from '../options/store'
import { maskSecrets } from '../relay/mask'
import type { LogWriter } from './log-writer'

/** A relay request refused after its key was verified and before a reservation existed for settle to log. */
export interface Refusal {
  user: UserRow
  token: TokenRow
  /** the model the client asked for ('' when it named none) */
  model: string
  stream: boolean
  status: number
  code: string
  /** what the client was told */
  message: string
  requestId: string
  clientIp: string
}

export interface RefusalDeps {
  options: Pick<OptionStore, 'get'>
  logs: Pick<LogWriter, 'push'>
}

/**
 * Queue the error row (type 5) of a refused request: unknown or unpriced model, rate limit, insufficient
 * quota, a bad body. Nothing was reserved, so nothing is charged; secrets in the message are masked.
 */
export function logRefusal(deps: RefusalDeps, r: Refusal, now = Math.floor(Date.now() / 1000)): void {
  if (!deps.options.get<boolean>('LogConsumeEnabled')) return
  deps.logs.push(refusalRow(r, now))
}

function refusalRow(r: Refusal, now: number): NewLog {
  return {
    createdAt: now,
    type: LogType.error,
    userId: r.user.id,
    username: r.user.username,
    tokenId: r.token.id,
    tokenName: r.token.name,
    modelName: maskSecrets(r.model).slice(0, 200),
    group: r.token.group || r.user.group,
    isStream: r.stream,
    statusCode: r.status,
    ip: r.clientIp,
    requestId: r.requestId,
    content: maskSecrets(r.message),
    other: JSON.stringify({ refused: r.code }),
  }
}
