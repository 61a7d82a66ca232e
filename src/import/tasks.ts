import type { ImportRepo } from '../db/repos'
import type { NewTask } from '../db/repos/tasks'
import { OPTION_DEFINITIONS } from '../options/definitions'
import { mjModel } from '../tasks/midjourney'
import { boundedData } from '../tasks/types'
import type { SourceSchema } from './detect-schema'
import type { Source, SourceRow } from './read-source'
import type { Report } from './report'
import { int, jsonObject, text } from './values'

/** The target's id of a source user, token or channel (0: not imported). */
export interface TaskIds {
  importedUser: (sourceId: number) => number
  token: (sourceId: number) => number
  channel: (sourceId: number) => number
}

/** The platforms of new-api's `tasks` table that Tollgate serves (src/tasks/platforms.ts). */
const SERVED = new Set(['suno'])
/** new-api's video platforms (the channel type as text, or an older name) as Tollgate's video vendors (src/tasks/video/). */
const VIDEO_PLATFORMS: Record<string, string> = { '1': 'sora', '55': 'sora', sora: 'sora', '50': 'kling', kling: 'kling', '51': 'jimeng', jimeng: 'jimeng', '52': 'vidu', vidu: 'vidu' }

/** What the target keeps of an upstream's task answer (TaskResultMaxBytes' default: the option is not read here). */
const MAX_DATA = Number(OPTION_DEFINITIONS.TaskResultMaxBytes!.default)

/**
 * midjourney-proxy reports unix ms, new-api's own tasks unix seconds: a time below 10^11 is read as seconds
 * (10^11 ms is 1973, 10^11 s is beyond year 5000).
 */
const millis = (value: unknown): number => {
  const n = int(value)
  return n > 0 && n < 1e11 ? n * 1000 : Math.max(0, n)
}

/**
 * How a task ends in the target. A task new-api had not finished comes over as failed and NOT refunded, and is
 * never polled: new-api charged it at submit, and its own poller may still end it (and refund it) after this read,
 * or the user's balance read here may already hold that refund. Polling it again here could refund it a second
 * time (or, for a task that succeeded, refund a task the upstream did run); failing it without a refund never
 * moves money. The report names these tasks so an operator can refund by hand what new-api did not.
 */
function endState(status: string, failed: boolean, now: number): Pick<NewTask, 'status' | 'refunded' | 'failReason' | 'finishTime'> {
  if (status === 'SUCCESS') return { status: 'SUCCESS', refunded: 0 }
  // new-api refunds a failed task when it ends: the balance read with the users holds that refund already
  if (failed) return { status: 'FAILURE', refunded: 1 }
  return { status: 'FAILURE', refunded: 0, failReason: `imported from new-api while still ${status || 'unknown'}: not polled, not refunded`, finishTime: now }
}

/**
 * new-api's `midjourneys` (Midjourney through midjourney-proxy) and `tasks` (Suno and the video vendors served; others are reported and
 * left behind) into Tollgate's `tasks`, for the users that came over, their tokens and channels through the id maps.
 * Finished tasks keep their state and results; unfinished ones: see `endState`. Nothing is charged or credited.
 */
export async function importTasks(source: Source, schema: SourceSchema, repo: ImportRepo, ids: TaskIds, report: Report): Promise<void> {
  const now = Date.now()
  const unfinished = new Map<string, number[]>()
  const write = async (table: string, sourceId: number, row: Omit<NewTask, 'userId' | 'status'>, sourceUser: number, status: string, failed: boolean) => {
    const userId = ids.importedUser(sourceUser)
    if (!userId) {
      report.skipped(table, 'user not imported')
      return
    }
    const end = endState(status, failed, now)
    if (end.refunded === 0 && end.status === 'FAILURE') unfinished.set(table, [...(unfinished.get(table) ?? []), sourceId])
    await repo.insertTask({ ...row, userId, ...end, failReason: end.failReason ?? row.failReason, finishTime: end.finishTime ?? row.finishTime })
    report.imported(table)
  }

  for (const row of schema.tables.has('midjourneys') ? await source.all('midjourneys', 'id') : []) {
    report.read('midjourneys')
    const status = text(row.status).toUpperCase()
    const action = text(row.action).toUpperCase()
    await write('midjourneys', int(row.id), midjourneyRow(row, ids, action), int(row.user_id), status, status === 'FAILURE' || status === 'CANCEL')
  }

  for (const row of schema.tables.has('tasks') ? await source.all('tasks', 'id') : []) {
    report.read('tasks')
    const platform = text(row.platform).toLowerCase()
    const video = Object.hasOwn(VIDEO_PLATFORMS, platform) ? VIDEO_PLATFORMS[platform]! : undefined
    if (video) {
      const status = text(row.status).toUpperCase()
      await write('tasks', int(row.id), videoRow(row, ids, video, status), int(row.user_id), status, status === 'FAILURE')
      continue
    }
    if (!SERVED.has(platform)) {
      report.skipped('tasks', 'platform not served')
      report.issue('tasks', 'platform', 'a platform Tollgate does not serve (it serves Midjourney, Suno, Sora, Kling, Jimeng and Vidu): not imported', int(row.id), platform)
      continue
    }
    const status = text(row.status).toUpperCase()
    await write('tasks', int(row.id), sunoRow(row, ids), int(row.user_id), status, status === 'FAILURE')
    if (text(row.private_data).trim()) report.issue('tasks', 'private_data', "new-api's private task data (it may hold an upstream key): not imported", int(row.id))
  }

  for (const [table, rows] of unfinished) {
    const note = 'still running in new-api: imported as failed and not refunded, never polled (polling it here could refund what new-api refunds too); refund by hand any new-api did not'
    for (const id of rows) report.issue(table, 'status', note, id)
  }
}

function midjourneyRow(row: SourceRow, ids: TaskIds, action: string): Omit<NewTask, 'userId' | 'status'> {
  const extra: Record<string, unknown> = {}
  for (const [key, column] of [['promptEn', 'prompt_en'], ['description', 'description'], ['state', 'state'], ['videoUrl', 'video_url']] as const) {
    if (text(row[column])) extra[key] = text(row[column])
  }
  for (const [key, column] of [['buttons', 'buttons'], ['properties', 'properties'], ['videoUrls', 'video_urls']] as const) {
    const raw = text(row[column]).trim()
    if (!raw) continue
    try {
      extra[key] = JSON.parse(raw)
    } catch {
      // new-api stores these as JSON text; one that is not is dropped (the report names the row)
    }
  }
  return {
    taskId: text(row.mj_id),
    platform: 'midjourney',
    tokenId: ids.token(int(row.token_id)),
    channelId: ids.channel(int(row.channel_id)),
    action,
    model: action ? mjModel(action) : '',
    progress: text(row.progress) || '0%',
    failReason: text(row.fail_reason),
    prompt: text(row.prompt),
    imageUrl: text(row.image_url),
    data: boundedData(extra, MAX_DATA, ['promptEn', 'description', 'properties']),
    quota: Math.max(0, int(row.quota)),
    submitTime: millis(row.submit_time),
    startTime: millis(row.start_time),
    finishTime: millis(row.finish_time),
  }
}

function sunoRow(row: SourceRow, ids: TaskIds): Omit<NewTask, 'userId' | 'status'> {
  const action = text(row.action).toUpperCase()
  const raw = text(row.data).trim()
  let data: unknown = null
  try {
    data = raw ? JSON.parse(raw) : null
  } catch {
    data = null
  }
  const properties = jsonObject(text(row.properties)) ?? {}
  return {
    taskId: text(row.task_id),
    platform: 'suno',
    channelId: ids.channel(int(row.channel_id)),
    group: text(row.group),
    action,
    model: action ? `suno_${action.toLowerCase()}` : '',
    progress: text(row.progress) || '0%',
    failReason: text(row.fail_reason),
    prompt: text(properties.input),
    data: boundedData({ data }, MAX_DATA, []),
    quota: Math.max(0, int(row.quota)),
    submitTime: millis(row.submit_time),
    startTime: millis(row.start_time),
    finishTime: millis(row.finish_time),
  }
}

/**
 * A video task of new-api's: its public `task_…` id kept (clients fetch by it), the vendor's id and the result URL
 * read from `private_data` (`upstream_task_id`, `result_url`; its `key` never), an old row's URL from `fail_reason`
 * as new-api reads it.
 */
function videoRow(row: SourceRow, ids: TaskIds, platform: string, status: string): Omit<NewTask, 'userId' | 'status'> {
  const properties = jsonObject(text(row.properties)) ?? {}
  const privateData = jsonObject(text(row.private_data)) ?? {}
  const oldUrl = status === 'SUCCESS' && /^https?:\/\//.test(text(row.fail_reason)) ? text(row.fail_reason) : ''
  const data = jsonObject(text(row.data)) ?? {}
  return {
    taskId: text(row.task_id),
    upstreamTaskId: text(privateData.upstream_task_id),
    platform,
    channelId: ids.channel(int(row.channel_id)),
    group: text(row.group),
    action: text(row.action),
    model: text(properties.origin_model_name) || text(properties.upstream_model_name) || text(data.model),
    progress: text(row.progress) || '0%',
    failReason: oldUrl ? '' : text(row.fail_reason),
    prompt: text(properties.input),
    imageUrl: (text(privateData.result_url) || oldUrl).slice(0, 4000),
    data: boundedData({ seconds: data.seconds, size: data.size }, MAX_DATA, []),
    quota: Math.max(0, int(row.quota)),
    submitTime: millis(row.submit_time),
    startTime: millis(row.start_time),
    finishTime: millis(row.finish_time),
  }
}
