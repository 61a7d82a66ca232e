import { boundedData, num, str, type PolledTask, type SubmitAnswer, type TaskPlatform } from './types'
import { parseData } from './midjourney'

/**
 * A Suno API proxy as new-api relays it: `POST /suno/submit/{music|lyrics}` answers `{code: "success", data:
 * "<task id>"}`, and `POST /suno/fetch {ids}` answers `{code: "success", data: [{task_id, status, progress,
 * fail_reason, data, …}]}`.
 */
export const sunoPlatform: TaskPlatform = {
  id: 'suno',
  headers: (key): Record<string, string> => (key ? { authorization: `Bearer ${key}` } : {}),

  readSubmit(body): SubmitAnswer {
    const answer = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>
    const taskId = str(answer.data)
    if (answer.code !== 'success' || !taskId) return { accepted: false, message: str(answer.message) || 'the upstream did not take the task' }
    return { accepted: true, taskId, message: '' }
  },

  pollRequest: (taskIds) => ({ path: '/suno/fetch', body: { ids: taskIds } }),

  readPoll(body, maxData): PolledTask[] {
    const answer = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>
    if (!Array.isArray(answer.data)) return []
    return answer.data.flatMap((item) => {
      if (typeof item !== 'object' || item === null) return []
      const task = item as Record<string, unknown>
      const taskId = str(task.task_id)
      if (!taskId) return []
      const status = str(task.status) || 'SUBMITTED'
      const final = status === 'SUCCESS' ? 'SUCCESS' : status === 'FAILURE' ? 'FAILURE' : undefined
      const patch = {
        status,
        progress: str(task.progress) || (final ? '100%' : '0%'),
        failReason: str(task.fail_reason).slice(0, 1000),
        startTime: num(task.start_time),
        finishTime: num(task.finish_time),
        data: boundedData({ data: task.data ?? null }, maxData, []),
      }
      return [{ taskId, patch, final }]
    })
  },
}

/** new-api's TaskDto, as `/suno/fetch` answers each task. */
export function sunoView(row: { taskId: string; action: string; status: string; failReason: string; submitTime: number; startTime: number; finishTime: number; progress: string; data: string }) {
  return {
    task_id: row.taskId,
    action: row.action,
    status: row.status,
    fail_reason: row.failReason,
    submit_time: row.submitTime,
    start_time: row.startTime,
    finish_time: row.finishTime,
    progress: row.progress,
    data: parseData(row.data).data ?? null,
  }
}
