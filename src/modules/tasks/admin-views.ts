import type { TaskRow } from '../../db/repos/tasks'
import { parseData } from '../../tasks/midjourney'
import { videoVendorOf } from '../../tasks/video/vendors'

/** A Midjourney task as new-api's `/api/mj` lists it (its `midjourneys` row); times in unix ms as the proxy reports them. */
export function mjRowView(row: TaskRow, admin: boolean) {
  const data = parseData(row.data)
  return {
    id: row.id,
    code: 1,
    user_id: row.userId,
    action: row.action,
    mj_id: row.taskId,
    prompt: row.prompt,
    prompt_en: typeof data.promptEn === 'string' ? data.promptEn : '',
    description: typeof data.description === 'string' ? data.description : '',
    state: typeof data.state === 'string' ? data.state : '',
    submit_time: row.submitTime,
    start_time: row.startTime,
    finish_time: row.finishTime,
    image_url: row.imageUrl,
    video_url: typeof data.videoUrl === 'string' ? data.videoUrl : '',
    status: row.status,
    progress: row.progress,
    fail_reason: row.failReason,
    channel_id: admin ? row.channelId : 0,
    quota: row.quota,
    refunded: row.refunded === 1,
    buttons: JSON.stringify(data.buttons ?? []),
    properties: JSON.stringify(data.properties ?? {}),
  }
}

const seconds = (ms: number) => Math.floor(ms / 1000)

/** A task as new-api's `/api/task` lists it (its `tasks` row); times in unix seconds as new-api keeps them. */
export function taskRowView(row: TaskRow, admin: boolean) {
  const data = parseData(row.data)
  return {
    id: row.id,
    created_at: seconds(row.submitTime),
    updated_at: seconds(Math.max(row.finishTime, row.startTime, row.submitTime)),
    task_id: row.taskId,
    platform: row.platform,
    user_id: row.userId,
    group: row.group,
    channel_id: admin ? row.channelId : 0,
    quota: row.quota,
    refunded: row.refunded === 1,
    action: row.action,
    status: row.status,
    fail_reason: row.failReason,
    submit_time: seconds(row.submitTime),
    start_time: seconds(row.startTime),
    finish_time: seconds(row.finishTime),
    progress: row.progress,
    properties: { input: row.prompt, origin_model_name: row.model },
    data: data.data ?? null,
    // a finished video's preview, through the gateway (the console's link; src/modules/tasks/video-console.ts)
    ...(videoVendorOf(row.platform) && row.status === 'SUCCESS' && { content_url: `/api/task/${admin ? '' : 'self/'}${row.taskId}/content` }),
  }
}
