import type { TaskProgress, TaskRefund, TaskRepo, TaskRow } from '../db/repos/tasks'
import { LogType } from '../db/repos/logs'
import type { OptionStore } from '../options/store'
import type { OutboundFetch } from '../outbound/fetch'
import { joinUrl } from '../providers/url'
import type { Channel } from '../relay/routing'
import { boundedText, parseJson } from '../outbound/bounded-body'
import { platformOf } from './platforms'
import type { PolledTask } from './types'
import { pollVideos } from './video/poll'
import { videoVendorOf } from './video/vendors'

export interface PollerDeps {
  tasks: Pick<TaskRepo, 'claimDue' | 'progress' | 'finish'>
  channels: { get(id: number): Channel | undefined }
  options: Pick<OptionStore, 'get'>
  outbound: { fetch: OutboundFetch }
  clock: { now(): number }
  /** this node's name on the leases it takes */
  nodeId: string
}

/** A batch poll's answer is bounded: a page of tasks, not a download. */
const MAX_POLL_ANSWER = 8 << 20

/**
 * One round of polling on this node: lease the running tasks that are due (no other node polls them while the
 * lease holds), ask each channel about its tasks in batches, write what changed and give the lease back with the
 * next poll's time. A task that ended in failure, ran past TaskTimeoutMinutes, or that the upstream did not know for
 * TaskLostPolls polls in a row ends as FAILURE with its quota refunded, in the same transaction (once, whichever node).
 */
export async function pollOnce(deps: PollerDeps): Promise<number> {
  const now = deps.clock.now()
  const leaseMs = deps.options.get<number>('TaskLeaseSeconds') * 1000
  const claimed = await deps.tasks.claimDue(deps.nodeId, now, now + leaseMs, deps.options.get<number>('TaskPollBatch'))
  const byChannel = new Map<number, TaskRow[]>()
  for (const task of claimed) byChannel.set(task.channelId, [...(byChannel.get(task.channelId) ?? []), task])
  await Promise.all([...byChannel].map(([channelId, tasks]) => pollChannel(deps, channelId, tasks)))
  return claimed.length
}

async function pollChannel(deps: PollerDeps, channelId: number, tasks: TaskRow[]): Promise<void> {
  const channel = deps.channels.get(channelId)
  const video = videoVendorOf(tasks[0]!.platform)
  // a video API is asked one task per call (src/tasks/video/poll.ts)
  if (channel && video) return pollVideos(deps, channel, video, tasks, applyPoll)
  const platform = platformOf(tasks[0]!.platform)
  if (!channel || !platform) {
    for (const task of tasks) await fail(deps, task, channel ? 'the task platform is unknown' : 'its channel was deleted')
    return
  }
  let polled: PolledTask[] | undefined
  try {
    const request = platform.pollRequest(tasks.map((t) => t.taskId))
    const key = channel.keys[0] ?? ''
    const response = await deps.outbound.fetch(joinUrl(channel.baseUrl, request.path), {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...platform.headers(key) },
      body: JSON.stringify(request.body),
      signal: AbortSignal.timeout(30_000),
      proxy: channel.overrides.proxy,
    })
    const text = await boundedText(response, MAX_POLL_ANSWER)
    if (response.ok && text !== undefined) polled = platform.readPoll(parseJson(text), deps.options.get<number>('TaskResultMaxBytes'))
    else console.warn(`task poll of channel ${channelId}: upstream ${response.status}${text === undefined ? ' (answer too large)' : ''}`)
  } catch (error) {
    console.warn(`task poll of channel ${channelId}: ${(error as Error).message}`)
  }
  const found = new Map((polled ?? []).map((p) => [p.taskId, p]))
  for (const task of tasks) await applyPoll(deps, task, polled === undefined ? undefined : (found.get(task.taskId) ?? null))
}

/** `news` undefined: the upstream did not answer (try again later); null: it answered without this task. */
async function applyPoll(deps: PollerDeps, task: TaskRow, news: PolledTask | null | undefined): Promise<void> {
  const now = deps.clock.now()
  const next = now + deps.options.get<number>('TaskPollIntervalSeconds') * 1000
  if (news?.final === 'SUCCESS') {
    await deps.tasks.finish(task.id, deps.nodeId, { ...news.patch, status: 'SUCCESS', progress: '100%', finishTime: news.patch.finishTime || now })
    return
  }
  if (news?.final === 'FAILURE') return void (await fail(deps, task, news.patch.failReason || 'the upstream failed the task', news.patch))
  if (now - task.submitTime > deps.options.get<number>('TaskTimeoutMinutes') * 60_000) return void (await fail(deps, task, 'timed out (TaskTimeoutMinutes)'))
  if (news === null) {
    const misses = task.misses + 1
    if (misses >= deps.options.get<number>('TaskLostPolls')) return void (await fail(deps, task, 'lost: the upstream no longer knows the task'))
    await deps.tasks.progress(task.id, deps.nodeId, { misses }, next)
    return
  }
  await deps.tasks.progress(task.id, deps.nodeId, news ? { ...news.patch, misses: 0 } : {}, next)
}

async function fail(deps: PollerDeps, task: TaskRow, reason: string, patch: TaskProgress = {}): Promise<void> {
  const now = deps.clock.now()
  const ended = { ...patch, status: 'FAILURE', progress: '100%', failReason: reason.slice(0, 1000), finishTime: patch.finishTime || now }
  const ok = await deps.tasks.finish(task.id, deps.nodeId, ended, refundOf(task, reason, now))
  if (ok) console.warn(`task ${task.taskId} (${task.platform}) failed: ${reason}; refunded ${task.quota}`)
}

/** The quota back, and the log row that says so (a system row on the task's user). */
function refundOf(task: TaskRow, reason: string, now: number): TaskRefund {
  return {
    amount: task.quota,
    log: {
      createdAt: Math.floor(now / 1000),
      type: LogType.system,
      userId: task.userId,
      tokenId: task.tokenId,
      modelName: task.model,
      channelId: task.channelId,
      group: task.group,
      quota: task.quota,
      requestId: task.requestId,
      content: `task ${task.taskId} failed (${reason}): refunded ${task.quota}`,
      other: JSON.stringify({ task_id: task.taskId, platform: task.platform, refund: task.quota }),
    },
  }
}
