import type { TaskProgress, TaskRow } from '../db/repos/tasks'

type PlatformId = 'midjourney' | 'suno'

/** What a client's submit asks of the upstream, decided by the route before the engine runs it. */
export interface SubmitSpec {
  /** the task's action as the platform names it: IMAGINE, UPSCALE … / MUSIC, LYRICS */
  action: string
  /** the priced name (new-api's ModelPrice key) the channels list: mj_imagine, suno_music … */
  model: string
  /** the upstream path, from the channel's base URL (a Midjourney mode prefix included) */
  path: string
  body: Record<string, unknown>
  prompt: string
  /** the client's earlier task this one acts on (change, action, modal): only that task's channel knows it */
  origin?: TaskRow
  /** false when the answer is the result itself (upload-discord-images): nothing to poll, no task kept */
  keepsTask: boolean
}

/** The upstream's answer to a submit. */
export interface SubmitAnswer {
  /** the upstream took the task (or answered the result) and it is charged */
  accepted: boolean
  /** the task's id at the upstream, which clients fetch by */
  taskId?: string
  /** the status the task starts in (MODAL when Midjourney waits for /submit/modal) */
  status?: string
  /** why it was not accepted */
  message: string
}

/** One task in a poll's answer: what changed, and whether it ended. */
export interface PolledTask {
  taskId: string
  patch: TaskProgress
  /** the status it ended in, or undefined while it runs */
  final?: 'SUCCESS' | 'FAILURE'
}

/** A task API: how it authenticates, reads a submit's answer, and polls many of its tasks at once. */
export interface TaskPlatform {
  id: PlatformId
  headers(key: string): Record<string, string>
  readSubmit(body: unknown): SubmitAnswer
  /** the batch fetch: up to TaskPollBatch ids per call */
  pollRequest(taskIds: readonly string[]): { path: string; body: unknown }
  /** the batch answer's tasks; `maxData` bounds what is kept of each (TaskResultMaxBytes) */
  readPoll(body: unknown, maxData: number): PolledTask[]
}

/** The upstream's JSON for a task, kept only while it fits `maxData` bytes (else the fields the client needs most). */
export function boundedData(data: Record<string, unknown>, maxData: number, essentials: readonly string[]): string {
  const text = JSON.stringify(data)
  if (Buffer.byteLength(text) <= maxData) return text
  const kept: Record<string, unknown> = { truncated: true }
  for (const key of essentials) if (key in data) kept[key] = data[key]
  const small = JSON.stringify(kept)
  return Buffer.byteLength(small) <= maxData ? small : '{"truncated":true}'
}

export const str = (value: unknown): string => (typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '')
export const num = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? Math.trunc(value) : 0)
