import { LogType } from '../db/repos/logs'
import type { LogWriter } from './log-writer'

export interface ManageLogInput {
  /** who did it */
  actor: { id: number; username: string }
  /** what was done, in a sentence an admin can read; never a secret */
  content: string
  ip?: string
  requestId?: string
  /** structured details (ids, fields changed) */
  details?: Record<string, unknown>
}

/** An admin action (channel, token, user or option change) as a type-3 log row, written with the next batch. */
export function recordManageLog(deps: { metering: { logs: Pick<LogWriter, 'push'> } }, input: ManageLogInput): void {
  deps.metering.logs.push({
    createdAt: Math.floor(Date.now() / 1000),
    type: LogType.manage,
    userId: input.actor.id,
    username: input.actor.username,
    content: input.content.slice(0, 2_000),
    ip: input.ip ?? '',
    requestId: input.requestId ?? '',
    other: input.details ? JSON.stringify(input.details) : '',
  })
}
