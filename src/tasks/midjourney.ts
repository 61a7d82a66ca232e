import type { TaskProgress } from '../db/repos/tasks'
import { boundedData, num, str, type PolledTask, type SubmitAnswer, type TaskPlatform } from './types'

/**
 * midjourney-proxy's API (novicezk/midjourney-proxy, as new-api relays it): submits answer `{code, description,
 * result}` (1 taken, 21 exists or waits for a modal, 22 queued; anything else refused), tasks are
 * `{id, action, status, progress, imageUrl, failReason, buttons, …}` with times in unix ms, and
 * `POST /mj/task/list-by-condition {ids}` fetches many at once.
 */
export const midjourneyPlatform: TaskPlatform = {
  id: 'midjourney',
  headers: (key): Record<string, string> => (key ? { 'mj-api-secret': key } : {}),

  readSubmit(body): SubmitAnswer {
    const answer = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>
    const code = num(answer.code)
    const message = `${str(answer.description) || 'refused'} (code ${code})`
    if (code !== 1 && code !== 21 && code !== 22) return { accepted: false, message }
    const properties = (answer.properties ?? {}) as Record<string, unknown>
    return { accepted: true, taskId: str(answer.result) || undefined, status: code === 21 && properties.status === 'MODAL' ? 'MODAL' : undefined, message }
  },

  pollRequest: (taskIds) => ({ path: '/mj/task/list-by-condition', body: { ids: taskIds } }),

  readPoll(body, maxData): PolledTask[] {
    if (!Array.isArray(body)) return []
    return body.flatMap((item) => {
      if (typeof item !== 'object' || item === null) return []
      const task = item as Record<string, unknown>
      const taskId = str(task.id)
      if (!taskId) return []
      const status = str(task.status) || 'SUBMITTED'
      const patch: TaskProgress = {
        status,
        progress: str(task.progress) || (status === 'SUCCESS' ? '100%' : '0%'),
        failReason: str(task.failReason).slice(0, 1000),
        imageUrl: str(task.imageUrl).slice(0, 4000),
        startTime: num(task.startTime),
        finishTime: num(task.finishTime),
        data: boundedData(pick(task, KEPT), maxData, ['promptEn', 'description', 'properties']),
      }
      const final = status === 'SUCCESS' ? 'SUCCESS' : status === 'FAILURE' || status === 'CANCEL' ? 'FAILURE' : undefined
      return [{ taskId, patch, final }]
    })
  },
}

/** What the gateway keeps of a midjourney-proxy task besides its columns, for the shapes clients read. */
const KEPT = ['promptEn', 'description', 'state', 'buttons', 'properties', 'customId', 'botType', 'videoUrl', 'videoUrls', 'maskBase64'] as const

function pick(task: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const key of keys) if (task[key] !== undefined && key !== 'maskBase64') out[key] = task[key]
  return out
}

/** The action a button's customId performs (`MJ::JOB::upsample::1::<hash>` is an UPSCALE), as new-api reads them. */
export function actionOfCustomId(customId: string): string | undefined {
  const rules: [string, string][] = [
    ['MJ::JOB::upsample', 'UPSCALE'],
    ['MJ::JOB::variation', 'VARIATION'],
    ['MJ::JOB::reroll', 'REROLL'],
    ['MJ::JOB::low_variation', 'LOW_VARIATION'],
    ['MJ::JOB::high_variation', 'HIGH_VARIATION'],
    ['MJ::JOB::pan_', 'PAN'],
    ['MJ::Outpaint::', 'ZOOM'],
    ['MJ::CustomZoom::', 'CUSTOM_ZOOM'],
    ['MJ::Inpaint::', 'INPAINT'],
  ]
  return rules.find(([prefix]) => customId.startsWith(prefix))?.[1]
}

/** The priced name of an action: `mj_` and the action in lower case (new-api's CoverActionToModelName). */
export const mjModel = (action: string): string => `mj_${action.toLowerCase()}`

/** The task as midjourney-proxy clients read it (new-api's MidjourneyDto). */
export function midjourneyView(row: { taskId: string; action: string; prompt: string; status: string; progress: string; failReason: string; imageUrl: string; submitTime: number; startTime: number; finishTime: number; data: string }) {
  const data = parseData(row.data)
  return {
    id: row.taskId,
    action: row.action,
    customId: str(data.customId),
    botType: str(data.botType),
    prompt: row.prompt,
    promptEn: str(data.promptEn),
    description: str(data.description),
    state: str(data.state),
    submitTime: row.submitTime,
    startTime: row.startTime,
    finishTime: row.finishTime,
    imageUrl: row.imageUrl,
    videoUrl: str(data.videoUrl),
    videoUrls: data.videoUrls ?? null,
    status: row.status,
    progress: row.progress,
    failReason: row.failReason,
    buttons: data.buttons ?? [],
    maskBase64: '',
    properties: data.properties ?? {},
  }
}

export function parseData(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text)
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {}
  } catch {
    return {}
  }
}
