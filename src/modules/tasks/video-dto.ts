import type { TaskRow } from '../../db/repos/tasks'
import { parseData } from '../../tasks/midjourney'

const seconds = (ms: number) => Math.floor(ms / 1000)

/** A video task as new-api's TaskDto (`/v1/video/generations/{id}` and Kling's fetch answer it in `{code, data}`): the result URL in `url`. */
export function taskDtoView(row: TaskRow) {
  return {
    task_id: row.taskId,
    action: row.action,
    status: row.status,
    fail_reason: row.failReason,
    submit_time: seconds(row.submitTime),
    start_time: seconds(row.startTime),
    finish_time: seconds(row.finishTime),
    progress: row.status === 'SUCCESS' ? '100%' : row.progress,
    url: row.imageUrl,
    data: parseData(row.data),
  }
}
