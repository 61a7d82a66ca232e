import type { tasks } from '../sqlite/schema'
import type { NewLog, Page } from './rows'

export type TaskRow = typeof tasks.$inferSelect
export type NewTask = typeof tasks.$inferInsert
/** What a poll may change of a running task. */
export type TaskProgress = Partial<Pick<NewTask, 'status' | 'progress' | 'failReason' | 'imageUrl' | 'data' | 'startTime' | 'finishTime' | 'prompt' | 'misses'>>

/** The statuses a task ends in: polling stops, and it never moves again. */
export const FINAL_TASK_STATUSES = ['SUCCESS', 'FAILURE', 'CANCEL'] as const

export interface TaskFilter {
  platform?: string
  /** everything but this platform (new-api's `/api/task` lists what `/api/mj` does not) */
  notPlatform?: string
  userId?: number
  channelId?: number
  taskId?: string
  action?: string
  status?: string
  /** submit time bounds, unix ms, inclusive */
  start?: number
  end?: number
}

/** A failed task's refund, written with its end: the quota back to the user (and a limited token), and its log row. */
export interface TaskRefund {
  amount: number
  log: NewLog
}

/**
 * Asynchronous tasks (Midjourney, Suno). Polling takes a lease per task (`claimDue`): only the lease's owner may
 * move it (`progress`, `finish`), so two nodes never poll one task at once, and a task whose node died is claimed
 * again once its lease lapsed. `finish` is a conditional UPDATE from a running status: a task ends, and is refunded,
 * once whoever calls it.
 */
export interface TaskRepo {
  insert(row: NewTask): Promise<TaskRow>
  /** The caller's tasks with these client ids on one platform (fetch, list-by-condition). */
  findOwned(userId: number, platform: string, taskIds: readonly string[]): Promise<TaskRow[]>
  /** Tasks of a user not yet ended (the in-flight bound). */
  countRunning(userId: number): Promise<number>
  /** Newest first. */
  list(filter: TaskFilter, offset: number, limit: number): Promise<Page<TaskRow>>
  /** Lease up to `limit` running tasks due for a poll (`next_poll_at` ≤ now) whose lease is free or lapsed, to `owner` until `leaseUntil` (unix ms). */
  claimDue(owner: string, now: number, leaseUntil: number, limit: number): Promise<TaskRow[]>
  /** A poll's news on a task `owner` leases, and its next poll; the lease is given back. False when the lease is not `owner`'s or the task ended. */
  progress(id: number, owner: string, patch: TaskProgress, nextPollAt: number): Promise<boolean>
  /**
   * End a running task (status in `patch`), with its refund when given, in one transaction. False (and nothing
   * written) when it had ended already or `owner` does not hold its lease (`owner` undefined: whoever holds it).
   */
  finish(id: number, owner: string | undefined, patch: TaskProgress, refund?: TaskRefund): Promise<boolean>
}
