import type { TaskRow } from '../../db/repos/tasks'
import { parseData } from '../midjourney'
import { num, str } from '../types'

type ViewRow = Pick<TaskRow, 'taskId' | 'status' | 'progress' | 'model' | 'prompt' | 'failReason' | 'imageUrl' | 'submitTime' | 'finishTime' | 'data'>

/** new-api's task statuses as OpenAI's video statuses (a task not yet started is queued). */
function videoStatus(status: string): 'queued' | 'in_progress' | 'completed' | 'failed' {
  if (status === 'SUCCESS') return 'completed'
  if (status === 'FAILURE' || status === 'CANCEL') return 'failed'
  return status === 'IN_PROGRESS' ? 'in_progress' : 'queued'
}

/**
 * A video task in OpenAI's video object shape (what `/v1/videos` answers, whatever the vendor), under the id the
 * client was given; `task_id` too, as new-api adds it. A vendor that gives a URL for its result has it in
 * `metadata.url`; the bytes are at `/v1/videos/{id}/content` for every vendor.
 */
export function videoView(row: ViewRow) {
  const data = parseData(row.data)
  const failed = videoStatus(row.status) === 'failed'
  const seconds = str(data.seconds)
  return {
    id: row.taskId,
    task_id: row.taskId,
    object: 'video',
    model: row.model,
    status: videoStatus(row.status),
    progress: row.status === 'SUCCESS' ? 100 : Math.max(0, Math.min(100, Number.parseInt(row.progress, 10) || 0)),
    created_at: Math.floor(row.submitTime / 1000),
    completed_at: row.finishTime ? Math.floor(row.finishTime / 1000) : null,
    expires_at: num(data.expires_at) || null,
    prompt: row.prompt || null,
    seconds: seconds || null,
    size: str(data.size) || null,
    remixed_from_video_id: str(data.remixed_from_video_id) || null,
    error: failed ? { code: 'video_generation_failed', message: row.failReason || 'the video failed' } : null,
    ...(row.imageUrl && { metadata: { url: row.imageUrl } }),
  }
}
